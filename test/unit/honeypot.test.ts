import { describe, expect, it } from "vitest";
import { honeypotFor, isSpam } from "~/http/honeypot.server";

const form = (fields: Record<string, string | Blob>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("the spam trap of public forms", () => {
  const honeypot = honeypotFor({ HONEYPOT_SECRET: "unit-test-honeypot-secret" });
  const validFrom = honeypot.getInputProps({ validFromTimestamp: Date.now() - 10_000 }).encryptedValidFrom!;

  it("lets a form it served through and stops one without its fields", () => {
    expect(isSpam(honeypot, form({ name__confirm: "", from__confirm: validFrom }))).toBe(false);
    expect(isSpam(honeypot, form({}))).toBe(true);
    expect(isSpam(honeypot, form({ name__confirm: "bot", from__confirm: validFrom }))).toBe(true);
  });

  it("calls a forged timestamp spam, also one that does not decrypt at all or is a file (no 500)", () => {
    expect(isSpam(honeypot, form({ name__confirm: "", from__confirm: new Blob(["x"]) }))).toBe(true);
    // crypto-js derives a random salt for a value without one, so whether a forgery decrypts is chance: force it.
    const undecryptable = Object.assign(Object.create(honeypot), {
      decrypt: () => {
        throw new Error("Malformed UTF-8 data");
      },
    });
    expect(isSpam(undecryptable, form({ name__confirm: "", from__confirm: "forged" }))).toBe(true);
  });
});
