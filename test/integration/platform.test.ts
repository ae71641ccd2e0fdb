import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";
import { connectSocket } from "../support/sockets";

const TITLE_SUFFIX = " - GamerMatch - ゲーマーマッチングプラットフォーム</title>";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.close();
});

describe("pages", () => {
  it.each([
    ["/", "ホーム"],
    ["/support", "サポート"],
    ["/terms", "利用規約"],
    ["/privacy", "プライバシーポリシー"],
    ["/transaction-act", "特定商取引法に基づく表記"],
    ["/inquiry", "お問い合わせ"],
  ])("%s renders in Japanese with the title format", async (pathname, page) => {
    const response = await app.request(pathname);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain(`<title>${page}${TITLE_SUFFIX}`);
  });

  it("streams Japanese text intact: no NUL bytes at React's chunk boundaries", async () => {
    // Long Japanese pages cross React's 2 KB write buffer many times (see app/entry.server.tsx).
    for (const pathname of ["/terms", "/support", "/privacy", "/transaction-act", "/inquiry"]) {
      const bytes = new Uint8Array(await (await app.request(pathname)).arrayBuffer());
      expect(bytes.length).toBeGreaterThan(8192);
      expect(bytes.indexOf(0), pathname).toBe(-1);
    }
  });

  it("home lists the demo games from the database", async () => {
    const html = await (await app.request("/")).text();
    expect(html).toContain("Apex Legends");
    expect(html).toContain("スプラトゥーン3");
  });

  it("an unknown path is a 404 page carrying `Page not found: {path}`", async () => {
    const response = await app.request("/no-such-page?x=1");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found: /no-such-page");
    expect(html).toContain(`<title>ページが見つかりません${TITLE_SUFFIX}`);
  });

  it("a POST to an unknown path is a 404 too", async () => {
    const response = await app.request("/no-such-page", { method: "POST", body: new URLSearchParams({ a: "1" }) });
    expect(response.status).toBe(404);
  });

  it("/transaction-act carries the 資金決済法 disclosure for coins", async () => {
    const html = await (await app.request("/transaction-act")).text();
    for (const heading of ["資金決済法", "発行者", "有効期間", "残高", "お問い合わせ", "利用上の注意"]) {
      expect(html).toContain(heading);
    }
  });
});

describe("HTTP platform", () => {
  it("GET /healthz answers ok with the database up", async () => {
    const response = await app.request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, db: "ok" });
  });

  it("GET /builds/latest answers the running build id", async () => {
    const response = await app.request("/builds/latest");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { id } = (await response.json()) as { id: string };
    const html = await (await app.request("/")).text();
    // The document's manifest carries the same version the client compares against.
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(html).toMatch(new RegExp(`"version":\\s*"${id}"`));
  });

  it("sends a CSP whose nonce is on every inline script", async () => {
    const response = await app.request("/");
    const csp = response.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("script-src 'self' 'nonce-");
    expect(csp).not.toContain("unsafe-inline");
    const html = await response.text();
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
    // Each response gets its own nonce.
    const again = (await app.request("/")).headers.get("content-security-policy");
    expect(again).not.toBe(csp);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-powered-by")).toBeNull();
  });

  it("compresses with brotli and gzip", async () => {
    const br = await app.request("/", { headers: { "Accept-Encoding": "br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    const gzip = await app.request("/", { headers: { "Accept-Encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
  });

  it("caches hashed assets for a year and other files briefly", async () => {
    const asset = fs.readdirSync(path.resolve("build/client/assets")).find((file) => file.endsWith(".css"));
    const hashed = await app.request(`/assets/${asset}`);
    expect(hashed.status).toBe(200);
    expect(hashed.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const plain = await app.request("/favicon.svg");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("cache-control")).toBe("public, max-age=3600");
    const missing = await app.request("/assets/nope-123.js");
    expect(missing.status).toBe(404);
  });

  it("serves Socket.IO on the same server at /socket.io", async () => {
    const { token } = await createMember(app);
    const socket = await connectSocket(app.url, token);
    expect(socket.connected).toBe(true);
    expect((socket.io as unknown as { opts: { path: string } }).opts.path).toBe("/socket.io");
    socket.close();
  });
});
