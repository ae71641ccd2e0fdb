import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { serverWithSockets } from "../support/sockets";

/**
 * A subscriber-only post's image is private (ADR 070), on whichever engine the run uses: uploaded with
 * `subscribersOnly`, stored outside the public folder, and /media/{id} answers its author and the author's active
 * subscribers only (a subscription past its expiry: 404), everyone else the same 404 as for a missing picture. A
 * public post's image stays public and cacheable; an image uploaded for the other audience is refused.
 */

const server = serverWithSockets({ seed: false });
const db = () => server.app.database.db;

const photo = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: "#aa3366" } }).jpeg().toBuffer();

async function upload(member: Member, { subscribersOnly }: { subscribersOnly?: string } = {}) {
  const form = new FormData();
  form.append("type", "post");
  if (subscribersOnly !== undefined) form.append("subscribersOnly", subscribersOnly);
  form.append("file", new Blob([new Uint8Array(await photo(800, 600))], { type: "image/jpeg" }), "shot.jpg");
  return server.app.request("/api/uploads", { method: "POST", body: form, headers: { Authorization: `Bearer ${member.token}` } });
}

const media = (pathname: string, member?: Pick<Member, "token">) => server.app.request(pathname, member ? { headers: { Authorization: `Bearer ${member.token}` } } : {});

/** A creator with a plan, a fan subscribed to it (through the ledger), a stranger. */
async function creatorFanStranger() {
  const [creator, fan, stranger] = await Promise.all(["クリエイター", "ファン", "通りすがり"].map((name) => createMember(server.app, name)));
  expect((await creator.api("/api/store/subscription-plan", { method: "PUT", json: { monthlyPrice: 500, description: "限定スクショ" } })).status).toBe(200);
  expect((await fan.api("/api/coins/orders", { json: { packageId: 2 }, headers: { "Idempotency-Key": randomUUID() } })).status).toBe(201);
  expect((await fan.api("/api/subscriptions", { json: { subscribeeId: creator.id }, headers: { "Idempotency-Key": randomUUID() } })).status).toBe(201);
  return { creator, fan, stranger };
}

describe("a subscriber-only post's image", () => {
  it("is private: its author and active subscribers get it (private), a subscriber after expiry, a stranger and a signed-out visitor 404", async () => {
    const { creator, fan, stranger } = await creatorFanStranger();
    const uploaded = await upload(creator, { subscribersOnly: "true" });
    expect(uploaded.status).toBe(201);
    const { data } = await uploaded.json();
    expect(data).toEqual({ id: expect.any(String), url: `/media/${data.id}`, width: 800, height: 600 });
    const row = await db().selectFrom("uploads").select(["kind", "url", "variant_url"]).where("id", "=", data.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ kind: "post", url: expect.stringMatching(/^private:post\/[0-9a-f]{64}\.jpg$/), variant_url: null });
    // Nothing in the served folder, and its key is no public URL.
    expect(fs.existsSync(path.join(server.app.config.DATA_DIR, "uploads", row.url.slice("private:".length)))).toBe(false);
    expect((await server.app.request(`/uploads/${row.url.slice("private:".length)}`)).status).toBe(404);

    const created = await creator.api("/api/posts/create", { json: { content: "限定の一枚", imageUrl: data.url, isPublic: false } });
    expect(created.status).toBe(201);
    const { post } = await created.json();
    expect(post.image).toEqual({ url: `/media/${data.id}`, width: 800, height: 600 });
    // The fan's view of the post points at /media; the stranger's is locked and names no image.
    expect((await (await fan.api(`/api/posts/${post.id}`)).json()).post.image.url).toBe(`/media/${data.id}`);
    const locked = (await (await stranger.api(`/api/posts/${post.id}`)).json()).post;
    expect(locked).toMatchObject({ locked: true, image: null, imageUrl: null, hasImage: true });

    for (const [who, member] of [
      ["author", creator],
      ["subscriber", fan],
    ] as const) {
      for (const pathname of [`/media/${data.id}`, `/media/${data.id}/small`]) {
        const answer = await media(pathname, member);
        expect(answer.status, `${who} ${pathname}`).toBe(200);
        expect(answer.headers.get("cache-control")).toBe("private, max-age=3600");
        expect(await sharp(Buffer.from(await answer.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width: 800 });
      }
    }
    for (const member of [stranger, undefined]) {
      const refused = await media(`/media/${data.id}`, member);
      expect(refused.status).toBe(404);
      expect(refused.headers.get("cache-control")).toBe("private, no-store");
    }

    // The subscription runs out: the fan is a stranger again.
    await db().updateTable("subscriptions").set({ expires_at: new Date(Date.now() - 60_000) }).where("subscriber_id", "=", fan.id).execute();
    expect((await media(`/media/${data.id}`, fan)).status).toBe(404);
    expect((await media(`/media/${data.id}`, creator)).status).toBe(200);
  });

  it("hidden by the operators, only its author still gets it", async () => {
    const { creator, fan } = await creatorFanStranger();
    const { data } = await (await upload(creator, { subscribersOnly: "true" })).json();
    const { post } = await (await creator.api("/api/posts/create", { json: { content: null, imageUrl: data.url, isPublic: false } })).json();
    expect((await media(`/media/${data.id}`, fan)).status).toBe(200);
    await db().updateTable("posts").set({ hidden_at: new Date() }).where("id", "=", post.id).execute();
    expect((await media(`/media/${data.id}`, fan)).status).toBe(404);
    expect((await media(`/media/${data.id}`, creator)).status).toBe(200);
  });

  it("an image uploaded for the other audience is refused (400, nothing posted); a public post's image stays public and cacheable", async () => {
    const author = await createMember(server.app, "投稿者");
    const publicImage = (await (await upload(author)).json()).data;
    const privateImage = (await (await upload(author, { subscribersOnly: "true" })).json()).data;
    expect(publicImage.url).toMatch(/^\/uploads\/post\/[0-9a-f]{64}\.jpg$/);
    for (const [imageUrl, isPublic] of [
      [publicImage.url, false],
      [privateImage.url, true],
    ] as const) {
      const refused = await author.api("/api/posts/create", { json: { content: "x", imageUrl, isPublic } });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toMatchObject({ code: "image_audience", message: "画像をもう一度選んでください" });
    }
    // Someone else's /media id is not the author's image.
    const other = await createMember(server.app, "他人");
    const othersImage = (await (await upload(other, { subscribersOnly: "true" })).json()).data;
    const notMine = await author.api("/api/posts/create", { json: { content: "x", imageUrl: othersImage.url, isPublic: false } });
    expect(notMine.status).toBe(400);
    expect((await notMine.json()).error.code).toBe("image_not_found");
    expect(await db().selectFrom("posts").select("id").where("author_id", "=", author.id).execute()).toEqual([]);

    expect((await author.api("/api/posts/create", { json: { content: "公開", imageUrl: publicImage.url, isPublic: true } })).status).toBe(201);
    const served = await server.app.request(publicImage.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("cache-control")).toMatch(/^public/);
  });

  it("subscribersOnly must be a yes or a no (400, nothing stored)", async () => {
    const author = await createMember(server.app, "投稿者");
    const refused = await upload(author, { subscribersOnly: "maybe" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fieldErrors).toEqual({ subscribersOnly: ["選択肢から選んでください"] });
    expect(await db().selectFrom("uploads").select("id").where("owner_id", "=", author.id).execute()).toEqual([]);
  });

  it("posted from the plain page (no JavaScript) with 「サブスク限定」, its image is private", async () => {
    const author = await createBrowserMember(server.app, "ページの人");
    const body = new FormData();
    body.append("content", "ページから限定");
    body.append("subscribersOnly", "on");
    body.append("image", new Blob([new Uint8Array(await photo(300, 200))], { type: "image/jpeg" }), "shot.jpg");
    const posted = await author.page("/posts/new", { method: "POST", body });
    expect(posted.status).toBe(302);
    const [row] = await db().selectFrom("uploads").select("url").where("owner_id", "=", author.id).execute();
    expect(row?.url).toMatch(/^private:post\//);
  });
});
