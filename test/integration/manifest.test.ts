import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";

/** Installable on a phone: the document links a manifest whose icons are what it says. */
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
});
afterAll(async () => {
  await app?.close();
});

interface Manifest {
  name: string;
  short_name: string;
  lang: string;
  start_url: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

describe("the web app manifest", () => {
  it("is linked by every page, with the apple-touch-icon", async () => {
    const html = await (await app.request("/")).text();
    expect(html).toMatch(/<link rel="manifest" href="\/manifest.webmanifest"\/?>/);
    const touchIcon = /<link rel="apple-touch-icon" href="([^"]+)"/.exec(html)?.[1];
    expect(touchIcon).toBeDefined();
    const response = await app.request(touchIcon!);
    expect(response.status).toBe(200);
    expect(await sharp(Buffer.from(await response.arrayBuffer())).metadata()).toMatchObject({ format: "png", width: 180, height: 180 });
  });

  it("parses, says what an installable Japanese app needs, and its icons are the sizes it claims", async () => {
    const response = await app.request("/manifest.webmanifest");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as Manifest;
    expect(manifest).toMatchObject({ name: "GamerMatch", short_name: "GamerMatch", lang: "ja", start_url: "/", display: "standalone" });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    expect(manifest.icons.some((icon) => icon.purpose?.split(" ").includes("maskable"))).toBe(true);
    for (const icon of manifest.icons) {
      const file = await app.request(icon.src);
      expect(file.status, icon.src).toBe(200);
      const [width, height] = icon.sizes.split("x").map(Number);
      expect(await sharp(Buffer.from(await file.arrayBuffer())).metadata(), icon.src).toMatchObject({ format: "png", width, height });
    }
  });
});
