import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTPayload } from "jose";
import { ACCESS_TOKEN_TTL_SECONDS } from "~/lib/constants";

/** The claims of a Supabase access token (docs/product.md#accounts). */
export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  aud: "authenticated";
  role: "authenticated";
  email: string;
  session_id: string;
  /** The session's authenticator assurance level: aal2 once a factor was verified in it. */
  aal?: "aal1" | "aal2";
  amr?: AuthenticationMethodReference[];
  exp: number;
  iat: number;
}

/** How a session was proven, and when (unix seconds): `password`, and `totp` at aal2, newest first. */
export interface AuthenticationMethodReference {
  method: string;
  timestamp: number;
}

const encoder = new TextEncoder();

export async function signAccessToken({
  secret,
  issuer,
  userId,
  email,
  sessionId,
  userMetadata = {},
  appMetadata = {},
  aal = "aal1",
  amr,
  now = Date.now(),
}: {
  secret: string;
  issuer: string;
  userId: string;
  email: string;
  sessionId: string;
  userMetadata?: Record<string, unknown>;
  /** What the owner cannot change (the operators' `roles`), beside the provider, as GoTrue's tokens carry it. */
  appMetadata?: Record<string, unknown>;
  aal?: "aal1" | "aal2";
  /** The session's methods; without them, a password at `now`. */
  amr?: AuthenticationMethodReference[];
  now?: number;
}) {
  const iat = Math.floor(now / 1000);
  const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
  const token = await new SignJWT({
    email,
    role: "authenticated",
    session_id: sessionId,
    aal,
    amr: amr ?? [{ method: "password", timestamp: iat }],
    app_metadata: { ...appMetadata, provider: "email", providers: ["email"] },
    user_metadata: userMetadata,
    is_anonymous: false,
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setAudience("authenticated")
    .setIssuer(issuer)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(encoder.encode(secret));
  return { token, expiresAt: exp };
}

/** The anon key supabase-js sends as `apikey` in local mode: a JWT with role anon, as Supabase issues. */
export function signAnonKey(secret: string) {
  return new SignJWT({ role: "anon" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer("gamermatch-local")
    .setIssuedAt(0)
    .sign(encoder.encode(secret));
}

export type TokenVerifier = (token: string) => Promise<AccessTokenClaims | null>;

/**
 * Verifies access tokens: HS256 with the project secret, or the hosted project's JWKS (RS256/ES256).
 * The algorithm is pinned, so `alg: none` or a key-confusion token is refused; exp and aud are checked.
 */
export function createTokenVerifier({ secret, jwksUrl }: { secret?: string; jwksUrl?: string }): TokenVerifier {
  const jwks = jwksUrl ? createRemoteJWKSet(new URL(jwksUrl)) : undefined;
  const key = secret ? encoder.encode(secret) : undefined;
  return async (token) => {
    try {
      const { payload } = key
        ? await jwtVerify(token, key, { algorithms: ["HS256"], audience: "authenticated" })
        : await jwtVerify(token, jwks!, { algorithms: ["RS256", "ES256"], audience: "authenticated" });
      if (typeof payload.sub !== "string" || payload.role !== "authenticated") return null;
      return payload as AccessTokenClaims;
    } catch {
      return null;
    }
  };
}
