import { createECDH } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import webpush from "web-push";
import { ConfigError, loadConfig, parseEnv } from "../../app/infra/config";
import { temporaryFolders } from "../support/temp-dirs";

const VAPID = webpush.generateVAPIDKeys();

const tempDir = temporaryFolders("gm-config-");

describe("environment", () => {
  it("has a default for everything", () => {
    expect(parseEnv({})).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      HOST: "0.0.0.0",
      DATA_DIR: "./data",
      SEED: "demo",
      DATABASE_POOL_MAX: 10,
      TRUST_PROXY: false,
    });
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://localhost/db" }, "DATABASE_URL"],
    [{ SEED: "lots" }, "SEED"],
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
    [{ HONEYPOT_SECRET: "short" }, "HONEYPOT_SECRET"],
  ])("refuses %j naming %s", (env, name) => {
    expect(() => parseEnv(env)).toThrow(ConfigError);
    expect(() => parseEnv(env)).toThrow(new RegExp(`^Invalid environment configuration:\\n  ${name}: `));
  });

  it("treats an empty value as unset", () => {
    const env = parseEnv({ DATABASE_URL: "", PORT: "" });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
  });
});

describe("secrets", () => {
  it("generates unset secrets once into DATA_DIR and reuses them", () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.HONEYPOT_SECRET).toMatch(/^[\w-]{43}$/);
    expect(first.SESSION_SECRET).toMatch(/^[\w-]{43}$/);
    expect(first.SESSION_SECRET).not.toBe(first.HONEYPOT_SECRET);
    const file = path.join(dir, "secrets.json");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).HONEYPOT_SECRET).toBe(first.HONEYPOT_SECRET);
  });

  it("prefers a secret from the environment and writes nothing", () => {
    const dir = tempDir();
    const config = loadConfig({
      DATA_DIR: dir,
      HONEYPOT_SECRET: "x".repeat(32),
      SESSION_SECRET: "z".repeat(32),
      SUPABASE_JWT_SECRET: "y".repeat(32),
      MFA_SECRET_KEY: "m".repeat(32),
      VAPID_PUBLIC_KEY: VAPID.publicKey,
      VAPID_PRIVATE_KEY: VAPID.privateKey,
      VAPID_SUBJECT: "mailto:ops@example.jp",
    });
    expect(config.HONEYPOT_SECRET).toBe("x".repeat(32));
    expect(config.MFA_SECRET_KEY).toBe("m".repeat(32));
    expect(config.SUPABASE_JWT_SECRET).toBe("y".repeat(32));
    expect(config).toMatchObject({ VAPID_PUBLIC_KEY: VAPID.publicKey, VAPID_PRIVATE_KEY: VAPID.privateKey, VAPID_SUBJECT: "mailto:ops@example.jp" });
    expect(fs.existsSync(path.join(dir, "secrets.json"))).toBe(false);
  });

  it("generates Web Push's VAPID key pair once (a P-256 pair web-push can sign with) and reuses it", () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    const publicKey = Buffer.from(first.VAPID_PUBLIC_KEY, "base64url");
    expect(publicKey).toHaveLength(65);
    expect(publicKey[0]).toBe(4);
    expect(Buffer.from(first.VAPID_PRIVATE_KEY, "base64url")).toHaveLength(32);
    // The pair matches: the public key is the private key's point.
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(Buffer.from(first.VAPID_PRIVATE_KEY, "base64url"));
    expect(ecdh.getPublicKey().toString("base64url")).toBe(first.VAPID_PUBLIC_KEY);
    expect(() => webpush.getVapidHeaders("https://push.example", first.VAPID_SUBJECT, first.VAPID_PUBLIC_KEY, first.VAPID_PRIVATE_KEY, "aes128gcm")).not.toThrow();
    expect(first.VAPID_SUBJECT).toBe("mailto:no-reply@gamermatch.localhost");
    const second = loadConfig({ DATA_DIR: dir });
    expect([second.VAPID_PUBLIC_KEY, second.VAPID_PRIVATE_KEY]).toEqual([first.VAPID_PUBLIC_KEY, first.VAPID_PRIVATE_KEY]);
    expect(loadConfig({ DATA_DIR: dir, SITE_URL: "https://gamermatch.example.jp" }).VAPID_SUBJECT).toBe("https://gamermatch.example.jp");
  });

  it("takes the VAPID keys together or not at all, and checks their shape", () => {
    expect(() => parseEnv({ VAPID_PUBLIC_KEY: VAPID.publicKey })).toThrow(/VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together/);
    expect(() => parseEnv({ VAPID_PUBLIC_KEY: "abc", VAPID_PRIVATE_KEY: VAPID.privateKey })).toThrow(/VAPID_PUBLIC_KEY: must be a P-256 public key/);
    expect(() => parseEnv({ VAPID_SUBJECT: "ops@example.jp" })).toThrow(/VAPID_SUBJECT: must be a mailto: address or an https:\/\/ URL/);
  });

  it("generates a JWT secret only when the app is its own auth server", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).SUPABASE_JWT_SECRET).toMatch(/^[\w-]{43}$/);
    const hosted = loadConfig({ DATA_DIR: tempDir(), SUPABASE_URL: "https://abc.supabase.co", SUPABASE_ANON_KEY: "k".repeat(40) });
    expect(hosted.SUPABASE_JWT_SECRET).toBeUndefined();
  });

  it("takes an S3-API bucket only with its credentials, and no S3_ variable without the bucket", () => {
    expect(() => parseEnv({ S3_BUCKET: "gm-images" })).toThrow(/S3_BUCKET: needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    expect(() => parseEnv({ S3_BUCKET: "gm-images", S3_ACCESS_KEY_ID: "key" })).toThrow(/S3_BUCKET: needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    expect(() => parseEnv({ S3_ENDPOINT: "https://minio.example.jp" })).toThrow(/S3_BUCKET: is required when another S3_ variable is set/);
    expect(() => parseEnv({ S3_BUCKET: "Not_A_Bucket", S3_ACCESS_KEY_ID: "key", S3_SECRET_ACCESS_KEY: "secret" })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => parseEnv({ S3_BUCKET: "gm-images", S3_ACCESS_KEY_ID: "key", S3_SECRET_ACCESS_KEY: "secret", S3_ENDPOINT: "ftp://x" })).toThrow(/S3_ENDPOINT: must be an http\(s\):\/\/ URL/);
    expect(parseEnv({ S3_BUCKET: "gm-images", S3_ACCESS_KEY_ID: "key", S3_SECRET_ACCESS_KEY: "secret", S3_ENDPOINT: "https://r2.example.jp/", S3_FORCE_PATH_STYLE: "false" })).toMatchObject({
      S3_BUCKET: "gm-images",
      S3_ENDPOINT: "https://r2.example.jp",
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: false,
    });
  });

  it("asks for the anon key of a hosted Supabase", () => {
    expect(() => parseEnv({ SUPABASE_URL: "https://abc.supabase.co" })).toThrow(/SUPABASE_ANON_KEY: is required when SUPABASE_URL is set/);
  });
});
