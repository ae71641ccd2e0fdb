import webpush from "web-push";
import type { PushUrgency } from "./db/tables";
import { OutboundRefusal, outboundRequest, type OutboundPolicy } from "./outbound";

/** A device as its push service knows it: where to post, and the keys the payload is encrypted for. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushOptions {
  /** Seconds the push service keeps the push for a device that is offline. */
  ttl: number;
  urgency: PushUrgency;
  /** Pushes of one topic replace each other while waiting at the push service (at most 32 URL-safe base64 characters). */
  topic?: string | null;
}

/**
 * What the push service said: taken; the subscription is gone (404/410: the device unsubscribed or expired, delete
 * it); worth another try later (429, 5xx, no answer), maybe with the service's Retry-After; or refused for good (any
 * other 4xx: the push itself is wrong, trying again would not help).
 */
export type PushResult =
  | { outcome: "sent"; status: number }
  | { outcome: "gone"; status: number }
  | { outcome: "retry"; status: number | null; retryAfterMs?: number; error: string }
  | { outcome: "refused"; status: number; error: string };

export interface PushClient {
  /** The VAPID public key browsers subscribe with (`applicationServerKey`). */
  publicKey: string;
  send(target: PushTarget, payload: string, options: PushOptions): Promise<PushResult>;
}

/**
 * The Web Push protocol (RFC 8030) with VAPID (RFC 8292) and aes128gcm payloads (RFC 8291), through the `web-push`
 * library: it signs the JWT and encrypts the payload (`generateRequestDetails`), and the request goes out through
 * outboundRequest (./outbound.ts): the endpoint is a URL the browser chose, so it must be https on a public address,
 * checked again now and connected to as checked (ADR 054). A refused endpoint is a push refused for good.
 */
export function createPushClient({
  publicKey,
  privateKey,
  subject,
  timeoutMs,
  outbound,
}: {
  publicKey: string;
  privateKey: string;
  subject: string;
  timeoutMs: number;
  outbound: OutboundPolicy;
}): PushClient {
  return {
    publicKey,
    async send(target, payload, options) {
      const details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
        vapidDetails: { subject, publicKey, privateKey },
        TTL: options.ttl,
        urgency: options.urgency,
        ...(options.topic ? { topic: options.topic } : {}),
        contentEncoding: "aes128gcm",
      });
      const headers: Record<string, string> = {};
      // outboundRequest sets Content-Length from the body itself.
      for (const [name, value] of Object.entries(details.headers)) if (name.toLowerCase() !== "content-length") headers[name] = String(value);
      let response: Awaited<ReturnType<typeof outboundRequest>>;
      try {
        response = await outboundRequest(
          details.endpoint,
          { method: details.method, headers, body: details.body ? new Uint8Array(details.body) : null, timeoutMs, maxBytes: PUSH_ANSWER_MAX_BYTES },
          outbound,
        );
      } catch (error) {
        if (error instanceof OutboundRefusal && !error.temporary) return { outcome: "refused", status: 0, error: `endpoint refused: ${error.message}` };
        return { outcome: "retry", status: null, error: error instanceof Error ? error.message : String(error) };
      }
      const text = response.body.toString("utf8");
      const { status } = response;
      if (status >= 200 && status < 300) return { outcome: "sent", status };
      if (status === 404 || status === 410) return { outcome: "gone", status };
      const error = `${status} ${text.slice(0, 200)}`.trim();
      if (status === 429 || status >= 500) return { outcome: "retry", status, retryAfterMs: retryAfterMs(response.headers.get("retry-after")), error };
      return { outcome: "refused", status, error };
    },
  };
}

/** A push service answers with a status and a line of text at most: more is not read. */
const PUSH_ANSWER_MAX_BYTES = 64 * 1024;

/** Retry-After as seconds or as an HTTP date, in milliseconds from now. */
function retryAfterMs(value: string | null) {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
