import { createHmac, timingSafeEqual } from "node:crypto";
import { MAIL_KINDS, type MailKind } from "~/lib/constants";

/**
 * The signed part of an unsubscribe link (RFC 8058): who and which kind of mail, under the server's SESSION_SECRET,
 * so the link turns exactly that kind off without signing in and a changed link does nothing.
 */
const signature = (secret: string, userId: string, kind: string) =>
  createHmac("sha256", secret).update(`unsubscribe\n${userId}\n${kind}`).digest("base64url");

export function unsubscribeUrl({ siteUrl, secret, userId, kind }: { siteUrl: string; secret: string; userId: string; kind: MailKind }) {
  const params = new URLSearchParams({ u: userId, k: kind, s: signature(secret, userId, kind) });
  return `${siteUrl}/unsubscribe?${params}`;
}

/** The user and kind a link names, when its signature is right; null for anything forged, changed or cut. */
export function verifyUnsubscribe({ secret, params }: { secret: string; params: URLSearchParams }): { userId: string; kind: MailKind } | null {
  const userId = params.get("u") ?? "";
  const kind = params.get("k") ?? "";
  const given = Buffer.from(params.get("s") ?? "");
  if (!/^[0-9a-f-]{36}$/.test(userId) || !(MAIL_KINDS as readonly string[]).includes(kind)) return null;
  const expected = Buffer.from(signature(secret, userId, kind));
  return given.length === expected.length && timingSafeEqual(given, expected) ? { userId, kind: kind as MailKind } : null;
}
