import { Secret, TOTP, URI } from "otpauth";
import { describe, expect, it } from "vitest";
import { generateTotpKey, matchTotpStep } from "../../app/infra/auth/totp";

/** app/infra/auth/totp.ts: GoTrue's TOTP (SHA1, 6 digits, 30 s, one step of skew) with otpauth and qrcode (ADR 063). */
describe("TOTP keys and codes", () => {
  const now = new Date("2026-11-28T12:00:10Z");
  const codeAt = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: at });

  it("makes a 20-byte secret, an otpauth URI of it and the URI's QR code as SVG", async () => {
    const key = await generateTotpKey({ issuer: "gamermatch.jp", accountName: "a@example.jp" });
    const parsed = URI.parse(key.uri) as TOTP;
    expect(parsed.secret.base32).toBe(key.secret);
    expect(Secret.fromBase32(key.secret).bytes.length).toBe(20);
    expect([parsed.issuer, parsed.label, parsed.algorithm, parsed.digits, parsed.period]).toEqual(["gamermatch.jp", "a@example.jp", "SHA1", 6, 30]);
    expect(key.qrCode.startsWith("<svg")).toBe(true);
  });

  it("answers the step of a code of this step or one either side, and null for anything else", async () => {
    const { secret } = await generateTotpKey({ issuer: "gamermatch.jp", accountName: "a@example.jp" });
    const step = Math.floor(now.getTime() / 30_000);
    expect(matchTotpStep({ secret, code: codeAt(secret, now.getTime()), now })).toBe(step);
    expect(matchTotpStep({ secret, code: codeAt(secret, now.getTime() - 30_000), now })).toBe(step - 1);
    expect(matchTotpStep({ secret, code: codeAt(secret, now.getTime() + 30_000), now })).toBe(step + 1);
    const far = codeAt(secret, now.getTime() - 90_000);
    if (![-1, 0, 1].some((delta) => codeAt(secret, now.getTime() + delta * 30_000) === far)) expect(matchTotpStep({ secret, code: far, now })).toBeNull();
    for (const code of ["", "12345", "1234567", "12345a", " 123456"]) expect(matchTotpStep({ secret, code, now })).toBeNull();
  });

  it("draws a QR code for a URI too long for high error correction", async () => {
    const key = await generateTotpKey({ issuer: "漢".repeat(100), accountName: `${"y".repeat(240)}@example.jp` });
    expect(key.qrCode).toContain("</svg>");
  });
});
