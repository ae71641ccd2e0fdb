import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";

/**
 * TOTP for the embedded auth server's factors (ADR 063), as GoTrue's pquerna/otp makes and checks them: a secret of
 * 20 random bytes in base32, SHA1, six digits, a 30-second period, and one step of skew either way. The secret is
 * handed to the caller once, at enrolment; nothing here logs it.
 */

const ALGORITHM = "SHA1";
const DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Steps accepted either side of the current one (GoTrue's Skew: 1). */
const WINDOW = 1;

/**
 * A new factor's secret, its otpauth:// URI and the URI's QR code as SVG markup (supabase-js adds the data: prefix).
 * `issuer` names the service in the authenticator app, `accountName` the account (its address).
 */
export async function generateTotpKey({ issuer, accountName }: { issuer: string; accountName: string }) {
  const totp = new TOTP({ issuer, label: accountName, algorithm: ALGORITHM, digits: DIGITS, period: TOTP_PERIOD_SECONDS, secret: new Secret({ size: 20 }) });
  const uri = totp.toString();
  return { secret: totp.secret.base32, uri, qrCode: await qrSvg(uri) };
}

/**
 * The URI's QR code as SVG, with GoTrue's high error correction; a long URI (a long issuer or address, in many bytes
 * of UTF-8) that does not fit at that level gets less correction rather than no code.
 */
async function qrSvg(uri: string) {
  for (const errorCorrectionLevel of ["H", "M"] as const) {
    try {
      return await QRCode.toString(uri, { type: "svg", errorCorrectionLevel });
    } catch {
      // Too long for this level: try the next.
    }
  }
  return QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "L" });
}

/**
 * The 30-second step `code` belongs to, when it is the secret's code at `now` or one step either side; else null.
 * The caller refuses a step it has accepted before (a replayed code).
 */
export function matchTotpStep({ secret, code, now }: { secret: string; code: string; now: Date }): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const timestamp = now.getTime();
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: DIGITS, period: TOTP_PERIOD_SECONDS, timestamp, window: WINDOW });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp }) + delta;
}

/**
 * The otpauth:// URI and QR code of a secret already handed out (an enrolment shown again after a mistyped code):
 * the same key, so the app already scanned keeps working.
 */
export async function totpKeyFor({ secret, issuer, accountName }: { secret: string; issuer: string; accountName: string }) {
  const totp = new TOTP({ issuer, label: accountName, algorithm: ALGORITHM, digits: DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
  const uri = totp.toString();
  return { uri, qrCode: await qrSvg(uri) };
}
