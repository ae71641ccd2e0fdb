import { generateKeyPairSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_PLATFORM_FEE_PERCENT, OVERLOAD_DEFAULTS } from "~/lib/constants";

/** An http(s):// URL. */
const httpUrl = () => z.string().url().refine((url) => /^https?:\/\//.test(url), "must be an http(s):// URL");
/** An http(s):// URL without its trailing slashes, so paths can be appended to it. */
const httpUrlWithoutSlash = () => httpUrl().transform((url) => url.replace(/\/+$/, ""));

/**
 * Every environment variable the server reads, validated once at start-up.
 * The README's configuration table mirrors this schema.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().min(1).default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .url()
    .refine((url) => /^postgres(ql)?:\/\//.test(url), "must be a postgres:// URL")
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * A streaming replica of DATABASE_URL for the heavy public reads (explore, game pages, profiles, the public feed);
   * a caller's reads after their own write, and every read while it is down or behind, go to the primary (ADR 040).
   */
  DATABASE_READ_URL: z
    .string()
    .url()
    .refine((url) => /^postgres(ql)?:\/\//.test(url), "must be a postgres:// URL")
    .optional(),
  /** Queries at least this long are logged (`db: slow query`, warn) with their SQL; unset or 0, none are. */
  DATABASE_SLOW_QUERY_MS: z.coerce.number().min(0).max(600_000).optional(),
  /** The slow-query log carries the queries' parameters too (benches, local diagnosis: they can be personal data). */
  DATABASE_SLOW_QUERY_PARAMETERS: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  /** Load shedding (ADR 011): API requests in progress, and queries waiting for a connection, before 503s. */
  OVERLOAD_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).default(OVERLOAD_DEFAULTS.maxInFlight),
  OVERLOAD_MAX_DB_QUEUE: z.coerce.number().int().min(1).max(10_000).default(OVERLOAD_DEFAULTS.maxDatabaseQueue),
  SEED: z.enum(["demo", "none"]).default("demo"),
  TRUST_PROXY: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  HONEYPOT_SECRET: z.string().min(16).optional(),
  /** Signs the app's own cookies (the flash toast). Generated into DATA_DIR when unset; replicas must share it. */
  SESSION_SECRET: z.string().min(16).optional(),
  /**
   * Encrypts the embedded auth's TOTP secrets at rest (ADR 064). Generated into DATA_DIR when unset; replicas must
   * share it, and losing it makes every authenticator app unusable (the operators turn two-step off per account).
   */
  MFA_SECRET_KEY: z.string().min(32).optional(),
  REDIS_URL: z
    .string()
    .url()
    .refine((url) => /^rediss?:\/\//.test(url), "must be a redis:// URL")
    .optional(),
  SUPABASE_URL: z.string().url().optional(),
  SUPABASE_ANON_KEY: z.string().min(20).optional(),
  SUPABASE_JWT_SECRET: z.string().min(32).optional(),
  /** Uploaded images go to this Supabase Storage bucket when SUPABASE_URL is set (a public bucket, ADR 017). */
  SUPABASE_STORAGE_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9._-]{1,62}$/, "must be a bucket name").default("uploads"),
  /** Writes to the bucket whatever its policies say; without it the anon key needs an insert policy. Server only. */
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(20).optional(),
  /**
   * Uploaded images go to this bucket of an S3-API store (AWS S3, Cloudflare R2, MinIO, Ceph) when set; it wins over
   * Supabase Storage (ADR 066). Needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.
   */
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3–63 of a-z 0-9 . -)").optional(),
  /** The store's endpoint (R2, MinIO, Ceph: https://…); unset, AWS S3 of S3_REGION. */
  S3_ENDPOINT: httpUrlWithoutSlash().optional(),
  /** AWS's region; R2 takes "auto", MinIO and Ceph anything. */
  S3_REGION: z.string().regex(/^[a-z0-9-]{2,32}$/, "must be a region name (us-east-1, auto …)").default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(3).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(3).optional(),
  /** Where public objects are read from (a CDN, R2's public bucket URL); unset, the bucket's own URL. */
  S3_PUBLIC_URL: httpUrlWithoutSlash().optional(),
  /** Path-style URLs (endpoint/bucket/key) rather than bucket.endpoint/key; unset, true when S3_ENDPOINT is set. */
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional(),
  /** The platform's share of what sellers earn, in percent (docs/product.md#coins). */
  PLATFORM_FEE_PERCENT: z.coerce.number().int().min(0).max(99).default(DEFAULT_PLATFORM_FEE_PERCENT),
  /** Stripe Checkout for coin purchases; both unset, the built-in test provider pays orders at once. */
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_/, "must be a Stripe secret key (sk_…)").optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_/, "must be a webhook signing secret (whsec_…)").optional(),
  /** Where the Stripe client sends API requests (tests point it at a local server). */
  STRIPE_API_BASE: z.string().url().optional(),
  /**
   * Where links in mails point (https://example.jp). Unset: http://localhost:<the port the server listens on>.
   * Links are never built from a request's Host header, which a stranger could set to their own site.
   */
  SITE_URL: httpUrlWithoutSlash().optional(),
  /** Mail goes out through this SMTP server (smtp:// or smtps://, with user:password if it needs them). Unset: DATA_DIR/mail/*.eml. */
  SMTP_URL: z
    .string()
    .url()
    .refine((url) => /^smtps?:\/\//.test(url), "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).default("GamerMatch <no-reply@gamermatch.localhost>"),
  /** Sign-up asks to confirm the address by mail before the first sign-in (local auth). */
  AUTH_CONFIRM_EMAIL: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  /**
   * Discordでログイン on the embedded auth (ADR 039): the application's id and secret from Discord's developer portal
   * (its redirect URI is SITE_URL/auth/v1/callback). Both unset, the button is not shown. With hosted Supabase,
   * Discord is configured in the Supabase dashboard instead and these are not read.
   */
  DISCORD_CLIENT_ID: z.string().regex(/^[0-9]{1,20}$/, "must be the application's id (digits)").optional(),
  DISCORD_CLIENT_SECRET: z.string().min(8).optional(),
  /** Where Discord's OAuth pages and API are: https://discord.com, or a stand-in (tests, staging). */
  DISCORD_URL: httpUrl().default("https://discord.com"),
  /** Where avatars and server icons are: https://cdn.discordapp.com, or a stand-in. */
  DISCORD_CDN_URL: httpUrl().default("https://cdn.discordapp.com"),
  /** Each request to Discord gives up after this many milliseconds. */
  DISCORD_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * Besides SITE_URL, where an OAuth sign-in may send the browser back (`redirect_to`), comma-separated URL prefixes,
   * as Supabase's redirect allow list. Anything else goes back to SITE_URL.
   */
  AUTH_REDIRECT_URLS: z
    .string()
    .transform((value) => value.split(",").map((entry) => entry.trim()).filter(Boolean))
    .pipe(z.array(z.string().url()))
    .default(""),
  /**
   * On SIGTERM a replica first fails /readyz for this long, still serving, so that the load balancer takes it out of
   * rotation (HAProxy's checks: within 750 ms); only then does it tell its sockets to move (ADR 048). 0 without a
   * load balancer.
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(5_000).default(1_000),
  /** `GET /metrics` answers only a caller sending `Authorization: Bearer <this>`; unset, it does not exist (404). */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  ALLOW_DEMO_ACCOUNTS: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  /**
   * Web Push's VAPID key pair (ADR 052), URL-safe base64 as `npx web-push generate-vapid-keys` prints it: the public
   * key (65 bytes) is what browsers subscribe with, so changing it silently ends every device's subscription. Both
   * unset, a pair is generated into DATA_DIR/secrets.json; replicas must share it.
   */
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, "must be a P-256 public key in URL-safe base64 (87 characters)").optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "must be a P-256 private key in URL-safe base64 (43 characters)").optional(),
  /** Who push services may contact about our pushes: mailto:… or https://…. Unset: SITE_URL if https, else MAIL_FROM's address. */
  VAPID_SUBJECT: z
    .string()
    .refine((value) => /^mailto:[^\s@]+@[^\s@]+$/.test(value) || /^https:\/\/[^\s]+$/.test(value), "must be a mailto: address or an https:// URL")
    .optional(),
  /**
   * Tests only: requests to URLs users chose (push endpoints, Discord avatars; app/infra/outbound.ts) may also go to
   * http:// and loopback addresses, where the tests' own stand-ins listen. Every other private address stays refused.
   */
  TEST_OUTBOUND_LOOPBACK: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
});

/** Secrets that are generated into DATA_DIR/secrets.json when the environment leaves them unset. */
const generatedSecrets = ["HONEYPOT_SECRET", "SESSION_SECRET", "SUPABASE_JWT_SECRET", "MFA_SECRET_KEY", "VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"] as const;
type SecretName = (typeof generatedSecrets)[number];

export type AppConfig = Omit<z.infer<typeof envSchema>, "HONEYPOT_SECRET" | "SESSION_SECRET" | "MFA_SECRET_KEY" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT"> & {
  HONEYPOT_SECRET: string;
  SESSION_SECRET: string;
  MFA_SECRET_KEY: string;
  /** Always set in local auth mode; with hosted Supabase, unset means "verify with the project's JWKS". */
  SUPABASE_JWT_SECRET?: string;
  VAPID_PUBLIC_KEY: string;
  VAPID_PRIVATE_KEY: string;
  VAPID_SUBJECT: string;
};

/** An environment: process.env, or what a test passes. */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseEnv(env: Env): z.infer<typeof envSchema> {
  // An empty string means "unset", as it does in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = envSchema
    .refine((env) => !env.SUPABASE_URL || env.SUPABASE_ANON_KEY, {
      path: ["SUPABASE_ANON_KEY"],
      message: "is required when SUPABASE_URL is set",
    })
    .refine((env) => !env.S3_BUCKET || (env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY), {
      path: ["S3_BUCKET"],
      message: "needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY",
    })
    .refine((env) => env.S3_BUCKET || !(env.S3_ENDPOINT || env.S3_ACCESS_KEY_ID || env.S3_SECRET_ACCESS_KEY || env.S3_PUBLIC_URL), {
      path: ["S3_BUCKET"],
      message: "is required when another S3_ variable is set",
    })
    .refine((env) => !env.DATABASE_READ_URL || env.DATABASE_URL, {
      path: ["DATABASE_READ_URL"],
      message: "is a replica of DATABASE_URL: set DATABASE_URL too",
    })
    .refine((env) => !env.DISCORD_CLIENT_ID === !env.DISCORD_CLIENT_SECRET, {
      path: ["DISCORD_CLIENT_SECRET"],
      message: "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are set together or not at all",
    })
    .refine((env) => !env.STRIPE_SECRET_KEY === !env.STRIPE_WEBHOOK_SECRET, {
      path: ["STRIPE_WEBHOOK_SECRET"],
      message: "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together or not at all",
    })
    .refine((env) => !env.VAPID_PUBLIC_KEY === !env.VAPID_PRIVATE_KEY, {
      path: ["VAPID_PRIVATE_KEY"],
      message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all",
    })
    .safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${problems.join("\n")}`);
  }
  return result.data;
}

/** Reads the environment and fills unset secrets from (or into) DATA_DIR, so production needs no configuration. */
export function loadConfig(env: Env = process.env): AppConfig {
  const parsed = parseEnv(env);
  const dataDir = path.resolve(parsed.DATA_DIR);
  // The JWT secret is ours to generate only when we are the auth server.
  const missing = generatedSecrets.filter(
    (name) => !parsed[name] && !(name === "SUPABASE_JWT_SECRET" && parsed.SUPABASE_URL),
  );
  const stored = missing.length > 0 ? readOrCreateSecrets(dataDir, missing) : {};
  const site = parsed.SITE_URL?.startsWith("https://") ? parsed.SITE_URL : undefined;
  const vapidSubject = parsed.VAPID_SUBJECT ?? site ?? `mailto:${/<([^>]+)>/.exec(parsed.MAIL_FROM)?.[1] ?? parsed.MAIL_FROM.trim()}`;
  return { ...parsed, DATA_DIR: dataDir, ...stored, VAPID_SUBJECT: vapidSubject } as AppConfig;
}

/** A P-256 key pair for VAPID (RFC 8292), as web-push takes it: the public key's uncompressed point and the private scalar, URL-safe base64. */
function vapidKeyPair() {
  const jwk = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ format: "jwk" });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]);
  return { VAPID_PUBLIC_KEY: point.toString("base64url"), VAPID_PRIVATE_KEY: jwk.d! };
}

function readOrCreateSecrets(dataDir: string, names: readonly SecretName[]): Partial<Record<SecretName, string>> {
  const file = path.join(dataDir, "secrets.json");
  let secrets: Partial<Record<SecretName, string>> = {};
  if (fs.existsSync(file)) {
    secrets = JSON.parse(fs.readFileSync(file, "utf8"));
  }
  const toCreate = names.filter((name) => !secrets[name]);
  if (toCreate.length > 0) {
    // The VAPID keys are a pair: made together, whichever of the two is missing.
    if (toCreate.some((name) => name.startsWith("VAPID_"))) Object.assign(secrets, vapidKeyPair());
    for (const name of toCreate) secrets[name] ??= randomBytes(32).toString("base64url");
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return Object.fromEntries(names.map((name) => [name, secrets[name]!]));
}
