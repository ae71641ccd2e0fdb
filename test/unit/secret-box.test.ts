import { describe, expect, it } from "vitest";
import { createSecretBox } from "~/infra/auth/secret-box";

describe("TOTP secrets sealed at rest", () => {
  const box = createSecretBox("k".repeat(43));
  const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

  it("seals a secret so that it does not show, and opens it for its own account only", () => {
    const sealed = box.seal(secret, "user-a");
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(sealed).not.toContain(secret);
    expect(box.seal(secret, "user-a")).not.toBe(sealed); // a fresh IV each time
    expect(box.open(sealed, "user-a")).toBe(secret);
    expect(box.open(sealed, "user-b")).toBeNull();
    expect(createSecretBox("x".repeat(43)).open(sealed, "user-a")).toBeNull();
  });

  it("refuses a damaged value and reads a secret stored before encryption as it is", () => {
    const sealed = box.seal(secret, "user-a");
    expect(box.open(`${sealed.slice(0, -2)}AA`, "user-a")).toBeNull();
    expect(box.open("v1.garbage", "user-a")).toBeNull();
    expect(box.open(secret, "user-a")).toBe(secret);
  });
});
