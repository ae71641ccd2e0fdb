import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { offlinePageHtml } from "~/lib/offline-page";
import { cachesToDelete, notificationOfPush, openFromNotification, shellCacheName, type ClientsLike, type WindowClientLike } from "~/lib/service-worker";
import { shellAssets } from "../../server/build-service-worker.mjs";
import { inlineOnlyPolicy } from "../../server/security";

const ORIGIN = "https://gamermatch.example";

describe("a push's notification (ADR 053)", () => {
  it("shows the payload's title, body and tag with the app's icon and badge, and keeps the page to open", () => {
    const data = JSON.stringify({ title: "ソラ", body: "今夜APEXやりませんか？", url: "/chat/room-1", tag: "chat:room-1" });
    expect(notificationOfPush(data, ORIGIN)).toEqual({
      title: "ソラ",
      options: {
        body: "今夜APEXやりませんか？",
        icon: "/icons/icon-192.png",
        badge: "/icons/badge-96.png",
        lang: "ja",
        tag: "chat:room-1",
        data: { url: `${ORIGIN}/chat/room-1` },
      },
    });
  });

  it("still shows one when the payload is missing or unreadable: the generic one, opening the notifications", () => {
    for (const data of [undefined, null, "", "not json", "42", JSON.stringify({ title: 7, url: ["/x"] })]) {
      const shown = notificationOfPush(data, ORIGIN);
      expect(shown.title, String(data)).toBe("GamerMatch");
      expect(shown.options.body).toBe("新しいお知らせがあります");
      expect(shown.options.data.url).toBe(`${ORIGIN}/notifications`);
      expect(shown.options).not.toHaveProperty("tag");
    }
  });

  it("never opens another site: an address elsewhere opens the notifications instead", () => {
    for (const url of ["https://evil.example/chat/1", "//evil.example/x", "javascript:alert(1)"]) {
      expect(notificationOfPush(JSON.stringify({ title: "t", body: "b", url }), ORIGIN).options.data.url, url).toBe(`${ORIGIN}/notifications`);
    }
  });
});

/** A browser's windows as the worker's `clients` lists them (most recently focused first), recording what is done. */
function windowsAt(...urls: string[]) {
  const done: string[] = [];
  const client = (url: string, controlled = true): WindowClientLike => ({
    url,
    focus: async () => void done.push(`focus ${url}`),
    navigate: async (to) => {
      if (!controlled) throw new TypeError("not controlled");
      done.push(`navigate ${url} → ${to}`);
      return client(to);
    },
  });
  const clients: ClientsLike = {
    matchAll: async () => urls.map((url) => (url.startsWith("uncontrolled:") ? client(url.slice(13), false) : client(url))),
    openWindow: async (url) => void done.push(`open ${url}`),
  };
  return { clients, done };
}

describe("a notification's click", () => {
  const room = `${ORIGIN}/chat/room-1`;

  it("brings a window already in the room to the front, and moves no other", async () => {
    const { clients, done } = windowsAt(`${ORIGIN}/mypage`, room);
    await openFromNotification(clients, room);
    expect(done).toEqual([`focus ${room}`]);
  });

  it("takes the most recently focused window of the app to the room", async () => {
    const { clients, done } = windowsAt(`${ORIGIN}/explore`, `${ORIGIN}/mypage`);
    await openFromNotification(clients, room);
    expect(done).toEqual([`navigate ${ORIGIN}/explore → ${room}`, `focus ${room}`]);
  });

  it("opens a new window when the app has none, or only one it cannot move", async () => {
    for (const open of [[], [`uncontrolled:${ORIGIN}/explore`]]) {
      const { clients, done } = windowsAt(...open);
      await openFromNotification(clients, room);
      expect(done).toEqual([`open ${room}`]);
    }
  });
});

describe("the worker's caches", () => {
  it("are one per version, and an activated worker deletes every other", () => {
    const current = shellCacheName("0123456789abcdef");
    expect(current).toBe("gm-shell-0123456789abcdef");
    expect(cachesToDelete(["gm-shell-0000000000000000", current, "pages"], current)).toEqual(["gm-shell-0000000000000000", "pages"]);
  });

  it("precache the shell as Remix's manifest names it, and the files its chunks name, never a route's chunk", () => {
    const client = fs.mkdtempSync(path.join(os.tmpdir(), "gm-shell-"));
    try {
      fs.mkdirSync(path.join(client, "assets"));
      const files: Record<string, string> = {
        "manifest-abc123.js": "",
        "entry.client-A.js": 'import "./framework-B.js";',
        "framework-B.js": "",
        "root-C.js": 'import "./shell-D.js";',
        "shell-D.js": 'const css="/assets/app-E.css",icons="/assets/nav-icons-F.svg";',
        "app-E.css": "",
        "nav-icons-F.svg": "",
        "_default._index-G.js": "",
      };
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(client, "assets", name), text);
      const manifest = {
        url: "/assets/manifest-abc123.js",
        version: "abc123",
        entry: { module: "/assets/entry.client-A.js", imports: ["/assets/framework-B.js"], css: [] },
        routes: {
          root: { id: "root", module: "/assets/root-C.js", imports: ["/assets/framework-B.js", "/assets/shell-D.js"], css: [] },
          "routes/_default._index": { id: "routes/_default._index", module: "/assets/_default._index-G.js", imports: [] },
        },
      };
      fs.writeFileSync(path.join(client, "assets", "manifest-abc123.js"), `window.__remixManifest=${JSON.stringify(manifest)};`);
      expect(shellAssets(client)).toEqual([
        "/assets/app-E.css",
        "/assets/entry.client-A.js",
        "/assets/framework-B.js",
        "/assets/manifest-abc123.js",
        "/assets/nav-icons-F.svg",
        "/assets/root-C.js",
        "/assets/shell-D.js",
      ]);
      // A chunk naming a file the build does not have fails the build rather than every install.
      fs.rmSync(path.join(client, "assets", "nav-icons-F.svg"));
      expect(() => shellAssets(client)).toThrow(/nav-icons-F\.svg/);
    } finally {
      fs.rmSync(client, { recursive: true, force: true });
    }
  });
});

describe("the offline page", () => {
  const html = offlinePageHtml();

  it("says オフラインです in Japanese, with a 再試行 button that reloads", () => {
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain('<h1 id="offline-title">オフラインです</h1>');
    expect(html).toContain('<button type="button" id="retry">再試行</button>');
    expect(html).toMatch(/<script>[^<]*location\.reload\(\)[^<]*<\/script>/);
    expect(html).toContain('name="viewport" content="width=device-width');
  });

  it("needs nothing from the network: no stylesheet, script or image of its own address", () => {
    expect(html).not.toMatch(/<link rel="stylesheet"|<script src=|<img /);
    expect(html).not.toMatch(/(?:href|src)="\//);
  });

  it("is allowed its own two inline blocks by their hashes, and nothing else", () => {
    const policy = inlineOnlyPolicy(html);
    const hash = (tag: string) => {
      const text = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(html)![1]!;
      return `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    };
    expect(policy).toBe(
      `default-src 'none'; style-src ${hash("style")}; script-src ${hash("script")}; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(inlineOnlyPolicy("<p>no blocks</p>")).toContain("script-src 'none'");
  });
});
