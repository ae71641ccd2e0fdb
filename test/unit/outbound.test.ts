import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkOutboundUrl, nonPublicReason, OutboundRefusal, outboundRequest, type Resolver } from "~/infra/outbound";
import { isUnstorableText, unstorableField } from "~/http/unstorable.server";

/**
 * The one way out to a URL a user chose (app/infra/outbound.ts, ADR 054): which addresses count as public, which URL
 * forms reach which address, and that the connection goes to the address checked, never to another. Only a loopback
 * server of this test's own is ever contacted.
 */

const strict = { allowLoopback: false };
const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

describe("nonPublicReason: only public unicast addresses pass", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["192.0.2.1", "reserved"],
    ["198.51.100.1", "reserved"],
    ["203.0.113.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["192.0.0.8", "reserved"],
    ["240.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "linkLocal"],
    ["::127.0.0.1", "IPv4-compatible"],
    ["::7f00:1", "IPv4-compatible"],
    ["::8.8.8.8", "IPv4-compatible"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::10.1.2.3", "private"],
    ["64:ff9b:1::a00:1", "local-use NAT64"],
    ["2002:7f00:1::1", "loopback"],
    ["2002:c0a8:101::1", "private"],
    ["2001::1", "teredo"],
    ["100::1", "discard"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["not-an-address", "not an IP address"],
  ])("%s is refused (%s)", (address, reason) => {
    expect(nonPublicReason(address)).toContain(reason);
  });

  it.each(["8.8.8.8", "1.1.1.1", "142.250.196.110", "2606:4700:4700::1111", "2001:4860:4860::8888", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1"])(
    "%s is public",
    (address) => {
      expect(nonPublicReason(address)).toBeNull();
    },
  );
});

describe("checkOutboundUrl: https to a host that resolves only to public addresses", () => {
  it.each([
    ["https://127.0.0.1/push", "loopback"],
    ["https://127.0.0.1:8443/push", "loopback"],
    ["https://2130706433/", "loopback"],
    ["https://0x7f.1/", "loopback"],
    ["https://127.1/", "loopback"],
    ["https://0177.0.0.1/", "loopback"],
    ["https://[::1]/push", "loopback"],
    ["https://[::ffff:7f00:1]/", "loopback"],
    ["https://[::ffff:127.0.0.1]/", "loopback"],
    ["https://[::127.0.0.1]/", "IPv4-compatible"],
    ["https://[fe80::1]/", "linkLocal"],
    ["https://[fd00::1]/", "uniqueLocal"],
    ["https://169.254.169.254/latest/meta-data/", "linkLocal"],
    ["https://10.1.2.3/", "private"],
    ["https://192.168.0.10/", "private"],
    ["https://100.100.100.200/", "carrierGradeNat"],
    ["https://0.0.0.0/", "unspecified"],
    ["https://localhost/push", "local name"],
    ["https://LOCALHOST./push", "local name"],
    ["https://foo.localhost/", "local name"],
    ["https://printer.local/", "local name"],
    ["https://metadata.google.internal/", "local name"],
    ["http://8.8.8.8/push", "not https"],
    ["ftp://8.8.8.8/", "not https"],
    ["javascript:alert(1)", "not https"],
    ["https://user:pass@8.8.8.8/", "credentials"],
    ["not a url", "not a URL"],
  ])("%s is refused (%s)", async (url, reason) => {
    const refusal = await checkOutboundUrl(url, { ...strict, resolve: resolvesTo("8.8.8.8") }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OutboundRefusal);
    expect((refusal as Error).message).toContain(reason);
  });

  it("a name is refused when any of its addresses is not public, and when it does not resolve", async () => {
    await expect(checkOutboundUrl("https://push.example.com/x", { ...strict, resolve: resolvesTo("8.8.8.8", "10.0.0.1") })).rejects.toThrow(/10\.0\.0\.1 \(IPv4 private\)/);
    await expect(checkOutboundUrl("https://push.example.com/x", { ...strict, resolve: resolvesTo("::ffff:192.168.0.1") })).rejects.toThrow(/private/);
    await expect(checkOutboundUrl("https://push.example.com/x", { ...strict, resolve: resolvesTo() })).rejects.toThrow(/no address/);
    const unresolved = await checkOutboundUrl("https://push.example.com/x", {
      ...strict,
      resolve: async () => {
        throw new Error("ENOTFOUND");
      },
    }).catch((error: unknown) => error);
    expect(unresolved).toMatchObject({ name: "OutboundRefusal", temporary: true });
  });

  it("public hosts and addresses pass, with the address to connect to", async () => {
    const checked = await checkOutboundUrl("https://fcm.googleapis.com/fcm/send/abc", { ...strict, resolve: resolvesTo("142.250.196.106", "2404:6800:4004:81f::200a") });
    expect(checked.address).toEqual({ address: "142.250.196.106", family: 4 });
    expect((await checkOutboundUrl("https://8.8.8.8/", strict)).address).toEqual({ address: "8.8.8.8", family: 4 });
    expect((await checkOutboundUrl("https://[2606:4700:4700::1111]/", strict)).address).toEqual({ address: "2606:4700:4700::1111", family: 6 });
  });

  it("the tests' switch admits loopback (and http:// to it) and nothing else", async () => {
    const loopback = { allowLoopback: true };
    await expect(checkOutboundUrl("http://127.0.0.1:9/push", loopback)).resolves.toBeTruthy();
    await expect(checkOutboundUrl("https://[::1]/push", loopback)).resolves.toBeTruthy();
    await expect(checkOutboundUrl("https://10.0.0.1/push", loopback)).rejects.toThrow(/private/);
    await expect(checkOutboundUrl("https://169.254.169.254/", loopback)).rejects.toThrow(/linkLocal/);
    await expect(checkOutboundUrl("http://8.8.8.8/push", loopback)).rejects.toThrow(/loopback stand-ins only/);
    await expect(checkOutboundUrl("http://localhost:9/push", loopback)).rejects.toThrow(/local name/);
  });
});

describe("outboundRequest: connects to the address it checked, follows no redirect", () => {
  let server: http.Server;
  let port = 0;
  const seen: Array<{ host: string | undefined; url: string | undefined }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ host: req.headers.host, url: req.url });
      if (req.url === "/redirect") res.writeHead(302, { Location: "http://127.0.0.1:9/elsewhere" }).end();
      else res.writeHead(201, { "Content-Type": "text/plain" }).end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a name is connected at the address its one lookup gave, with its own Host header", async () => {
    let lookups = 0;
    const resolve: Resolver = async () => {
      lookups++;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const response = await outboundRequest(`http://stand-in.test:${port}/push`, { method: "POST", body: new Uint8Array([1]), timeoutMs: 5_000, maxBytes: 100 }, { allowLoopback: true, resolve });
    expect(response.status).toBe(201);
    expect(response.body.toString()).toBe("ok");
    expect(lookups).toBe(1);
    expect(seen.at(-1)).toEqual({ host: `stand-in.test:${port}`, url: "/push" });
  });

  it("a redirect is answered as it is, not followed", async () => {
    const response = await outboundRequest(`http://127.0.0.1:${port}/redirect`, { timeoutMs: 5_000, maxBytes: 100 }, { allowLoopback: true });
    expect(response.status).toBe(302);
    expect(seen.at(-1)?.url).toBe("/redirect");
  });

  it("without the switch the same host is refused before a connection is made", async () => {
    const before = seen.length;
    await expect(outboundRequest(`https://stand-in.test:${port}/push`, { timeoutMs: 5_000, maxBytes: 100 }, { allowLoopback: false, resolve: resolvesTo("127.0.0.1") })).rejects.toBeInstanceOf(OutboundRefusal);
    expect(seen.length).toBe(before);
  });

  it("an answer over its limit is an error", async () => {
    await expect(outboundRequest(`http://127.0.0.1:${port}/`, { timeoutMs: 5_000, maxBytes: 1 }, { allowLoopback: true })).rejects.toThrow(/over 1 bytes/);
  });
});

describe("unstorable text: what the request readers refuse", () => {
  it.each([
    ["a\u0000b", true],
    ["\ud800", true],
    ["a\udfffb", true],
    ["😀", false],
    ["\ufffd", false],
    ["\u0001", false],
  ])("%j is unstorable: %s", (value, expected) => {
    expect(isUnstorableText(value)).toBe(expected);
  });

  it("names the top-level field a nested unstorable string is under, keys included", () => {
    expect(unstorableField({ a: "ok", metadata: { caption: ["x", "\u0000"] } })).toBe("metadata");
    expect(unstorableField({ ["k\ud800"]: 1 })).toBe("k\ud800");
    expect(unstorableField({ nested: { ["\u0000"]: "x" } })).toBe("nested");
    expect(unstorableField("\u0000")).toBe("");
    expect(unstorableField(["ok", "\udc00"])).toBe("");
    expect(unstorableField({ a: "ok", b: [1, null, true] })).toBeNull();
  });
});
