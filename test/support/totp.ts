import { Secret, TOTP } from "otpauth";

/** The code an authenticator app shows now for a base32 secret (SHA1, 6 digits, 30 s), or `steps` periods later. */
export const totpCode = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: Date.now() + steps * 30_000 });
