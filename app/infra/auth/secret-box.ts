import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * TOTP secrets at rest (ADR 064): AES-256-GCM under a key derived (HKDF-SHA256) from MFA_SECRET_KEY, bound to the
 * account it belongs to (the user id as associated data), so a database dump or backup holds no usable secret and a
 * row copied onto another account does not open. Stored as `v1.<iv>.<ciphertext and tag>` (base64url). A value without
 * the prefix is a secret stored before encryption (migration 0030's rows) and is read as it is.
 */

const PREFIX = "v1.";

const keyOf = (secret: string) => Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "gamermatch totp secret v1", 32));

export function createSecretBox(secret: string) {
  const key = keyOf(secret);
  return {
    seal(plain: string, userId: string) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(userId));
      const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return `${PREFIX}${iv.toString("base64url")}.${sealed.toString("base64url")}`;
    },
    /** The secret, or null when it does not open (another key, another account, a damaged value). */
    open(stored: string, userId: string): string | null {
      if (!stored.startsWith(PREFIX)) return stored;
      const [ivText, sealedText] = stored.slice(PREFIX.length).split(".");
      try {
        const iv = Buffer.from(ivText ?? "", "base64url");
        const sealed = Buffer.from(sealedText ?? "", "base64url");
        const decipher = createDecipheriv("aes-256-gcm", key, iv);
        decipher.setAAD(Buffer.from(userId));
        decipher.setAuthTag(sealed.subarray(sealed.length - 16));
        return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
