import { createECDH, createPublicKey, randomBytes, verify } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
// @ts-expect-error http_ece ships no types: decrypt(buffer, { version, privateKey, authSecret }) → Buffer.
import ece from "http_ece";

/**
 * A stand-in push service (RFC 8030) on loopback, as a browser vendor's would be for one test file: it hands out
 * subscriptions whose keys the test made (a P-256 key pair with node:crypto and a 16-byte auth secret), and for every
 * push it checks what a real one checks, refusing what fails:
 * - `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292): `k` is the application server's key, the JWT is ES256
 *   and its signature verifies with that key, `aud` is the endpoint's origin, `exp` is in the future and within 24
 *   hours, `sub` is a mailto: or https: contact;
 * - `TTL` is there, `Urgency` is one of the four, `Topic` (if any) at most 32 URL-safe base64 characters;
 * - the body is `Content-Encoding: aes128gcm` (RFC 8188/8291) and decrypts, with the subscription's private key and
 *   auth secret (http_ece), to the payload, which is kept as JSON.
 * Each subscription answers 201 unless the test scripts its answers (404, 410, 429, 500 …).
 */

export interface ReceivedPush {
  subscription: string;
  status: number;
  ttl: number;
  urgency: string;
  topic: string | null;
  claims: { aud: string; exp: number; sub: string };
  payload: { title: string; body: string; url: string; tag: string } & Record<string, unknown>;
  at: number;
}

export interface StandInSubscription {
  id: string;
  /** As `PushSubscription.toJSON()` gives it, for POST /api/push/subscriptions. */
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  endpoint: string;
}

export interface PushServiceStandIn {
  url: string;
  /** A new subscription of a device, with keys made here. */
  subscribe(): StandInSubscription;
  /** The pushes accepted or answered for a subscription (those that passed the checks), in order. */
  received(subscription: StandInSubscription): ReceivedPush[];
  /** Pushes that failed a check, with why (a test expects none). */
  rejected: Array<{ subscription: string; reason: string }>;
  /** The next answers for the subscription, one per push, then 201 again; `retryAfter` (seconds) with them. */
  answer(subscription: StandInSubscription, statuses: number[], retryAfter?: number): void;
  /** Resolves once the subscription has `count` pushes, or rejects after `timeoutMs`. */
  waitFor(subscription: StandInSubscription, count: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

const base64url = (buffer: Buffer) => buffer.toString("base64url");

export async function startPushServiceStandIn({ vapidPublicKey }: { vapidPublicKey: string }): Promise<PushServiceStandIn> {
  const devices = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer; answers: number[]; retryAfter?: number; pushes: ReceivedPush[] }>();
  const rejected: PushServiceStandIn["rejected"] = [];
  const waiters = new Set<() => void>();
  const applicationServerKey = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: base64url(Buffer.from(vapidPublicKey, "base64url").subarray(1, 33)),
      y: base64url(Buffer.from(vapidPublicKey, "base64url").subarray(33, 65)),
    },
    format: "jwk",
  });
  let origin = "";

  function check(req: http.IncomingMessage, body: Buffer, id: string): Omit<ReceivedPush, "status" | "at" | "subscription"> | string {
    const device = devices.get(id)!;
    const authorization = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? "");
    if (!authorization) return `no VAPID authorization: ${req.headers.authorization}`;
    const [, jwt, k] = authorization;
    if (k !== vapidPublicKey) return "k is not the application server's key";
    const [headerPart, claimsPart, signaturePart] = jwt!.split(".");
    if (!headerPart || !claimsPart || !signaturePart) return "the JWT has not three parts";
    const header = JSON.parse(Buffer.from(headerPart, "base64url").toString());
    if (header.alg !== "ES256" || header.typ !== "JWT") return `JWT header ${JSON.stringify(header)}`;
    const signed = verify("sha256", Buffer.from(`${headerPart}.${claimsPart}`), { key: applicationServerKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signaturePart, "base64url"));
    if (!signed) return "the JWT's signature does not verify with the public key";
    const claims = JSON.parse(Buffer.from(claimsPart, "base64url").toString());
    if (claims.aud !== origin) return `aud ${claims.aud} is not ${origin}`;
    const now = Math.floor(Date.now() / 1000);
    if (!(claims.exp > now && claims.exp <= now + 24 * 60 * 60)) return `exp ${claims.exp} is not within the next 24 hours`;
    if (!/^(mailto:|https:)/.test(claims.sub ?? "")) return `sub ${claims.sub}`;
    const ttl = req.headers.ttl;
    if (ttl === undefined || !/^\d+$/.test(String(ttl))) return `TTL ${ttl}`;
    const urgency = String(req.headers.urgency ?? "normal");
    if (!["very-low", "low", "normal", "high"].includes(urgency)) return `Urgency ${urgency}`;
    const topic = req.headers.topic === undefined ? null : String(req.headers.topic);
    if (topic !== null && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) return `Topic ${topic}`;
    if (req.headers["content-encoding"] !== "aes128gcm") return `Content-Encoding ${req.headers["content-encoding"]}`;
    let plain: Buffer;
    try {
      plain = ece.decrypt(body, { version: "aes128gcm", privateKey: device.ecdh, authSecret: device.auth });
    } catch (error) {
      return `the body does not decrypt: ${(error as Error).message}`;
    }
    return { ttl: Number(ttl), urgency, topic, claims, payload: JSON.parse(plain.toString("utf8")) };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? "")?.[1];
      const device = id ? devices.get(id) : undefined;
      if (req.method !== "POST" || !id || !device) return void res.writeHead(404).end();
      const checked = check(req, Buffer.concat(chunks), id);
      if (typeof checked === "string") {
        rejected.push({ subscription: id, reason: checked });
        return void res.writeHead(checked.includes("JWT") || checked.includes("VAPID") || checked.startsWith("k ") ? 403 : 400).end(checked);
      }
      const status = device.answers.shift() ?? 201;
      device.pushes.push({ subscription: id, status, ...checked, at: Date.now() });
      for (const wake of waiters) wake();
      res.writeHead(status, status === 429 || status >= 500 ? (device.retryAfter ? { "Retry-After": String(device.retryAfter) } : {}) : { Location: `${origin}/message/${randomBytes(6).toString("hex")}` });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const accepted = (subscription: StandInSubscription) => devices.get(subscription.id)?.pushes ?? [];
  return {
    url: origin,
    subscribe() {
      const id = randomBytes(8).toString("hex");
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      devices.set(id, { ecdh, auth, answers: [], pushes: [] });
      const endpoint = `${origin}/push/${id}`;
      return { id, endpoint, json: { endpoint, expirationTime: null, keys: { p256dh: base64url(ecdh.getPublicKey()), auth: base64url(auth) } } };
    },
    received: accepted,
    rejected,
    answer(subscription, statuses, retryAfter) {
      const device = devices.get(subscription.id)!;
      device.answers.push(...statuses);
      device.retryAfter = retryAfter;
    },
    waitFor(subscription, count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const done = () => {
          if (accepted(subscription).length < count) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(accepted(subscription));
          return true;
        };
        const wake = () => void done();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`${accepted(subscription).length} of ${count} pushes reached ${subscription.id}; rejected: ${JSON.stringify(rejected)}`));
        }, timeoutMs);
        waiters.add(wake);
        done();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
