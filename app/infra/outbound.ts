import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The one way out to a URL a user chose (a push endpoint, a Discord avatar; ADR 054): https only, to a host that
 * resolves only to public addresses, connected to the very address that was checked (no second lookup a DNS answer
 * could change in between), no redirects followed. Anything else is an OutboundRefusal before a byte is sent.
 */

/** An address as a resolver gives it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name stands for (dns.lookup in production; tests inject their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  /**
   * Tests only (TEST_OUTBOUND_LOOPBACK): http:// and loopback addresses are allowed too, for the tests' own stand-ins
   * (a push service, Discord). Every other non-public address is refused all the same.
   */
  allowLoopback: boolean;
  resolve?: Resolver;
}

/** Why a URL may not be requested: an English reason for logs, never shown to a user. */
export class OutboundRefusal extends Error {
  override name = "OutboundRefusal";
  /** The host did not resolve: at send time worth another try later, unlike an address that is not public. */
  constructor(
    message: string,
    readonly temporary = false,
  ) {
    super(message);
  }
}

const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** IPv4 ranges ipaddr.js names that are reachable on the public internet: only plain unicast. */
const PUBLIC_V4 = new Set(["unicast"]);

/**
 * Why an address is not public (its range's name), or null when it is. IPv6 forms that carry an IPv4 address (mapped
 * ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address inside; IPv4-compatible ::/96 and
 * every special IPv6 range (teredo, local-use NAT64, documentation, ORCHID …) are refused outright.
 */
export function nonPublicReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    const raw = address.replace(/^\[|\]$/g, "");
    // IPv6 in the URL parser's canonical form first: ipaddr.js reads an IPv4-compatible ::a.b.c.d as mapped.
    parsed = raw.includes(":") ? ipaddr.IPv6.parse(new URL(`http://[${raw}]`).hostname.slice(1, -1)) : ipaddr.IPv4.parse(raw);
  } catch {
    return "not an IP address";
  }
  if (parsed.kind() === "ipv4") {
    const range = parsed.range();
    return PUBLIC_V4.has(range) ? null : `IPv4 ${range}`;
  }
  const v6 = parsed as ipaddr.IPv6;
  const parts = v6.parts;
  const embedded = (high: number, low: number) => nonPublicReason(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);
  const range = v6.range();
  if (range === "ipv4Mapped") return embedded(parts[6]!, parts[7]!);
  // 64:ff9b::/96 only: the local-use 64:ff9b:1::/48 translates on the operator's own network.
  if (range === "rfc6052") return parts.slice(2, 6).every((part) => part === 0) && parts[1] === 0xff9b ? embedded(parts[6]!, parts[7]!) : "IPv6 local-use NAT64";
  if (range === "6to4") return embedded(parts[1]!, parts[2]!);
  if (range !== "unicast") return `IPv6 ${range}`;
  if (parts.slice(0, 6).every((part) => part === 0)) return "IPv6 IPv4-compatible";
  return null;
}

/** Host names that mean this machine or its network whatever DNS says (RFC 6761's localhost, mDNS's .local). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)\.?$/i;

/** A URL that may be requested, with the address it is to be reached at. */
export interface CheckedUrl {
  url: URL;
  address: ResolvedAddress;
}

/**
 * Checks that `input` may be requested under `policy`: https (http only for loopback stand-ins under the test
 * switch), no credentials, and a host that is a public address or a name resolving only to public addresses. The
 * URL parser already reads `https://2130706433/`, `0x7f.1` and `127.1` as 127.0.0.1.
 */
export async function checkOutboundUrl(input: string | URL, policy: OutboundPolicy): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundRefusal("not a URL");
  }
  if (url.protocol !== "https:" && !(policy.allowLoopback && url.protocol === "http:")) throw new OutboundRefusal(`scheme ${url.protocol} is not https`);
  if (url.username || url.password) throw new OutboundRefusal("credentials in the URL");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!host) throw new OutboundRefusal("no host");
  const literal = ipaddr.isValid(host);
  if (!literal && LOCAL_NAME.test(host)) throw new OutboundRefusal(`${host} is a local name`);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === "ipv6" ? 6 : 4 }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(host);
    } catch (error) {
      throw new OutboundRefusal(`${host} does not resolve: ${error instanceof Error ? error.message : String(error)}`, true);
    }
  }
  if (addresses.length === 0) throw new OutboundRefusal(`${host} has no address`);
  for (const { address } of addresses) {
    const reason = nonPublicReason(address);
    if (reason && !(policy.allowLoopback && isLoopback(address))) throw new OutboundRefusal(`${host} is ${address} (${reason})`);
  }
  if (url.protocol === "http:" && !addresses.every(({ address }) => isLoopback(address))) throw new OutboundRefusal("http:// is for loopback stand-ins only");
  return { url, address: addresses[0]! };
}

function isLoopback(address: string) {
  try {
    return ipaddr.process(address).range() === "loopback";
  } catch {
    return false;
  }
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/**
 * Sends one request to a user-chosen URL after checkOutboundUrl, connected to the address it checked; a redirect is
 * returned as it is, never followed. The answer is read up to `maxBytes` (longer: an error), within `timeoutMs`.
 */
export async function outboundRequest(
  input: string | URL,
  {
    method = "GET",
    headers = {},
    body,
    timeoutMs,
    maxBytes,
  }: { method?: string; headers?: Record<string, string>; body?: Uint8Array | null; timeoutMs: number; maxBytes: number },
  policy: OutboundPolicy,
): Promise<OutboundResponse> {
  const { url, address } = await checkOutboundUrl(input, policy);
  // The socket goes to the checked address whatever the name would resolve to now; TLS still verifies the name.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method,
        headers: body ? { ...headers, "Content-Length": String(body.byteLength) } : headers,
        lookup: pinned,
        // A fresh connection per request: a pooled one could have been opened for another check.
        agent: false,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let length = 0;
        response.on("data", (chunk: Buffer) => {
          length += chunk.byteLength;
          if (length > maxBytes) {
            reject(new Error(`answer over ${maxBytes} bytes`));
            response.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          if (length > maxBytes) return;
          const answer = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(", ") : value);
          }
          resolve({ status: response.statusCode ?? 0, headers: answer, body: Buffer.concat(chunks) });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body ? Buffer.from(body) : undefined);
  });
}
