import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordFootprint } from "~/models/footprints.server";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Posts, the feed, profiles and footprints through the real server (docs/product.md#validation, #api; docs/product.md#data, #constants), on
 * whichever engine the run uses.
 */

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.database.db;
const post = (member: Member, body: Record<string, unknown>) => member.api("/api/posts/create", { json: body });
const errorOf = async (response: Response) => (await response.json()).error as { code: string; message: string; fieldErrors?: Record<string, string[]> };
const postCount = async (authorId: string) => Number((await db().selectFrom("posts").select((eb) => eb.fn.countAll().as("n")).where("author_id", "=", authorId).executeTakeFirstOrThrow()).n);

/** Uploads a small PNG as the member (type post) and answers its URL. */
async function uploadImage(member: Member, { width = 64, height = 48 } = {}) {
  const png = await sharp({ create: { width, height, channels: 3, background: "#3b82f6" } }).png().toBuffer();
  const form = new FormData();
  form.set("type", "post");
  form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "shot.png");
  const response = await app.request("/api/uploads", { method: "POST", body: form, headers: { Authorization: `Bearer ${member.token}` } });
  expect(response.status).toBe(201);
  return ((await response.json()).data as { url: string }).url;
}

describe("POST /api/posts/create (docs/product.md#validation, #api)", () => {
  it("text only: trimmed, line breaks kept, 201 with the post at the top level", async () => {
    const author = await createMember(app, "テキスト投稿者");
    const response = await post(author, { content: "  一行目\n二行目  ", imageUrl: null, isPublic: true });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({ success: true, post: { content: "一行目\n二行目", imageUrl: null, image: null, isPublic: true, author: { uid: author.id, displayName: "テキスト投稿者" } } });
  });

  it("image only: the author's own upload, with its width and height", async () => {
    const author = await createMember(app, "画像投稿者");
    const url = await uploadImage(author, { width: 64, height: 48 });
    const response = await post(author, { content: null, imageUrl: url, isPublic: true });
    expect(response.status).toBe(201);
    expect((await response.json()).post).toMatchObject({ content: null, imageUrl: url, image: { url, width: 64, height: 48 } });
  });

  it("refuses empty, whitespace only, 501 characters, and an image that is not the author's upload; 500 characters pass", async () => {
    const author = await createMember(app, "検証する人");
    const other = await createMember(app, "他人");
    const othersImage = await uploadImage(other);
    for (const body of [
      { content: null, imageUrl: null },
      { content: "", imageUrl: null },
      { content: " \n\t ", imageUrl: null },
      { content: "あ".repeat(501), imageUrl: null },
      {},
    ]) {
      const response = await post(author, { ...body, isPublic: true });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).message).toBe("入力内容を確認してください");
    }
    const empty = await errorOf(await post(author, { content: "   ", imageUrl: null, isPublic: true }));
    expect(empty.fieldErrors?.content).toEqual(["テキストか画像のどちらかを入力してください"]);
    for (const imageUrl of [othersImage, "https://evil.example/track.gif", "/uploads/post/missing.png"]) {
      const response = await post(author, { content: null, imageUrl, isPublic: true });
      expect(response.status, imageUrl).toBe(400);
      expect((await errorOf(response)).code).toBe("image_not_found");
    }
    expect(await postCount(author.id)).toBe(0);
    expect((await post(author, { content: "い".repeat(500), imageUrl: null, isPublic: true })).status).toBe(201);
  });

  it("anonymous is a 401", async () => {
    const response = await app.request("/api/posts/create", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ content: "こんにちは" }) });
    expect(response.status).toBe(401);
  });

  it("at most 5 posts a minute: the 6th is a 429 and writes nothing; 8 at once → exactly 5", async () => {
    const steady = await createMember(app, "連投する人");
    for (let i = 0; i < 5; i++) expect((await post(steady, { content: `投稿${i}` })).status).toBe(201);
    const sixth = await post(steady, { content: "6つ目" });
    expect(sixth.status).toBe(429);
    expect(await errorOf(sixth)).toMatchObject({ code: "rate_limited", message: "投稿が続いています。1分ほど待ってからもう一度お試しください" });
    expect(await postCount(steady.id)).toBe(5);

    const burst = await createMember(app, "同時に投稿する人");
    const statuses = await Promise.all(Array.from({ length: 8 }, (_, i) => post(burst, { content: `同時${i}` }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    expect(await postCount(burst.id)).toBe(5);
  });
});

describe("the new post page and the avatar forms (no JavaScript)", () => {
  const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: "#10b981" } }).png().toBuffer();
  const multipart = (fields: Record<string, string>, file?: { name: string; bytes: Buffer }) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    if (file) form.set(file.name, new Blob([new Uint8Array(file.bytes)], { type: "image/png" }), "picture.png");
    return { method: "POST", body: form };
  };
  const uploadsOf = (userId: string) => db().selectFrom("uploads").selectAll().where("owner_id", "=", userId).execute();

  it("posts text and image in one POST; nothing to post is a 400 with the reason; a refused post stores no image", async () => {
    const author = await createBrowserMember(app, "ページから投稿する人");
    const empty = await author.page("/posts/new", multipart({ content: "  ", isPublic: "true" }));
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("テキストか画像のどちらかを入力してください");
    const notImage = await author.page("/posts/new", multipart({ content: "画像のつもり" }, { name: "image", bytes: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>") }));
    expect(notImage.status).toBe(400);
    expect(await notImage.text()).toContain("入力内容を確認してください");

    const posted = await author.page("/posts/new", multipart({ content: "ページから", isPublic: "true", redirectTo: `/u/${author.id}` }, { name: "image", bytes: await png(120, 90) }));
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe(`/u/${author.id}`);
    const [stored] = await db().selectFrom("posts").innerJoin("uploads", "uploads.id", "posts.upload_id").select(["posts.content", "uploads.width", "uploads.height", "uploads.kind"]).where("author_id", "=", author.id).execute();
    expect(stored).toEqual({ content: "ページから", width: 120, height: 90, kind: "post" });

    for (let i = 0; i < 4; i++) expect((await post(author, { content: `埋める${i}` })).status).toBe(201);
    const limited = await author.page("/posts/new", multipart({ content: "6つ目" }, { name: "image", bytes: await png(50, 50) }));
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain("投稿が続いています");
    expect(await uploadsOf(author.id)).toHaveLength(1);
    expect(await postCount(author.id)).toBe(5);
  });

  it("the avatar form stores a square picture as the avatar; remove takes it away", async () => {
    const member = await createBrowserMember(app, "アバターの人");
    const uploaded = await member.page("/mypage/avatar", multipart({}, { name: "avatar", bytes: await png(300, 200) }));
    expect(uploaded.status).toBe(302);
    expect(uploaded.headers.get("Location")).toBe("/mypage/gamer-edit");
    const [avatar] = await uploadsOf(member.id);
    expect(avatar).toMatchObject({ kind: "avatar", width: 200, height: 200 });
    const user = () => db().selectFrom("users").select("avatar_url").where("id", "=", member.id).executeTakeFirstOrThrow();
    expect((await user()).avatar_url).toBe(avatar!.url);
    // Saving the profile form (which has no avatar field) keeps it.
    const saved = await member.page("/mypage/gamer-edit", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ displayName: "アバターの人" }) });
    expect(saved.status).toBe(302);
    expect((await user()).avatar_url).toBe(avatar!.url);
    const refused = await member.page("/mypage/avatar", multipart({}, { name: "avatar", bytes: Buffer.from("not an image") }));
    expect(refused.status).toBe(302);
    expect((await user()).avatar_url).toBe(avatar!.url);
    const removed = await member.page("/mypage/avatar", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ intent: "remove" }) });
    expect(removed.status).toBe(302);
    expect((await user()).avatar_url).toBeNull();
  });
});

describe("deleting a post", () => {
  it("by its author only: someone else gets 404 and the post stays; anonymous 401; gone afterwards", async () => {
    const author = await createMember(app, "消す人");
    const stranger = await createMember(app, "消せない人");
    const { post: created } = await (await post(author, { content: "消す予定" })).json();
    const path = `/api/posts/${created.id}`;
    expect((await stranger.api(path, { method: "DELETE" })).status).toBe(404);
    expect((await app.request(path, { method: "DELETE" })).status).toBe(401);
    expect((await stranger.api("/api/posts/not-a-uuid", { method: "DELETE" })).status).toBe(404);
    expect((await app.request(path)).status).toBe(200);
    expect((await author.api(path, { method: "DELETE" })).status).toBe(200);
    expect((await app.request(path)).status).toBe(404);
    expect((await author.api(path, { method: "DELETE" })).status).toBe(404);
  });

  it("the delete form: the author's post goes with a redirect back; someone else's is a 404", async () => {
    const author = await createBrowserMember(app, "フォームで消す人");
    const stranger = await createBrowserMember(app, "フォームで消せない人");
    const { post: created } = await (await post(author, { content: "フォームで消す" })).json();
    const form = () => ({ method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ redirectTo: "/feed" }) });
    expect((await stranger.page(`/posts/${created.id}/delete`, form())).status).toBe(404);
    expect(await db().selectFrom("posts").select("id").where("id", "=", created.id).executeTakeFirst()).toBeDefined();
    const deleted = await author.page(`/posts/${created.id}/delete`, form());
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/feed");
    expect(await db().selectFrom("posts").select("id").where("id", "=", created.id).executeTakeFirst()).toBeUndefined();
  });
});

describe("the feed, profiles and the gallery", () => {
  it("content renders inert: script and markup in a post are text on the feed and the profile", async () => {
    const author = await createMember(app, "XSSを試す人");
    const payload = `<script>window.__xss=1</script><img src=x onerror="window.__xss=2">"'&\n<a href="javascript:alert(1)">x</a>`;
    expect((await post(author, { content: payload })).status).toBe(201);
    for (const path of ["/feed", `/u/${author.id}/posts`]) {
      const html = await (await app.request(path)).text();
      expect(html, path).toContain("&lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=");
      expect(html, path).not.toContain("<script>window.__xss");
      expect(html, path).not.toContain('<img src=x onerror');
      expect(html, path).not.toContain('<a href="javascript:alert(1)"');
    }
  });

  it("pages newest first by cursor with no post twice or missed, with JavaScript's fetch and the plain 「もっと見る」 link alike", async () => {
    const authors = await Promise.all(Array.from({ length: 5 }, (_, i) => createMember(app, `ページ送り${i}`)));
    const mine = new Set<string>();
    for (let round = 0; round < 5; round++) {
      for (const author of authors) mine.add((await (await post(author, { content: `ページ${round}` })).json()).post.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?cursor=${cursor}&limit=7` : "?limit=7";
      const body = await (await app.request(`/api/posts${query}`)).json();
      seen.push(...body.data.posts.map((p: { id: string }) => p.id));
      cursor = body.data.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of mine) expect(seen).toContain(id);
    const times = await db().selectFrom("posts").select(["id", "created_at"]).where("id", "in", seen).execute();
    const at = new Map(times.map((row) => [row.id, row.created_at.getTime()]));
    expect(seen.map((id) => at.get(id)!)).toEqual([...seen.map((id) => at.get(id)!)].sort((a, b) => b - a));

    const firstPage = await (await app.request("/feed")).text();
    const older = /href="\/feed\?cursor=([^"]+)"/.exec(firstPage)?.[1];
    expect(older).toBeDefined();
    expect((await app.request(`/feed?cursor=${older}`)).status).toBe(200);
    expect((await app.request("/feed?cursor=not-a-cursor")).status).toBe(400);
  });

  it("a blocked user's posts are hidden from the blocker only; a non-public post opens to its author only, locked for others", async () => {
    const blocker = await createMember(app, "ブロックする人");
    const blocked = await createMember(app, "ブロックされる人");
    const bystander = await createMember(app, "第三者");
    const { post: loud } = await (await post(blocked, { content: "見えなくなる投稿" })).json();
    const { post: secret } = await (await post(blocked, { content: "限定の投稿", isPublic: false })).json();
    expect((await blocker.api(`/api/users/${blocked.id}/block`, { method: "POST" })).status).toBe(200);
    const idsFor = async (member: Member | null) => {
      const path = `/api/posts?authorId=${blocked.id}`;
      const response = member ? await member.api(path) : await app.request(path);
      return ((await response.json()).data.posts as Array<{ id: string }>).map((p) => p.id);
    };
    expect(await idsFor(blocker)).toEqual([]);
    expect(await idsFor(bystander)).toEqual([secret.id, loud.id]);
    expect(await idsFor(null)).toEqual([secret.id, loud.id]);
    expect(await idsFor(blocked)).toEqual([secret.id, loud.id]);
    expect((await blocker.api(`/api/posts/${loud.id}`)).status).toBe(404);
    const locked = await (await bystander.api(`/api/posts/${secret.id}`)).json();
    expect(locked.post).toMatchObject({ id: secret.id, locked: true, content: null, imageUrl: null, isPublic: false });
    const open = await (await blocked.api(`/api/posts/${secret.id}`)).json();
    expect(open.post).toMatchObject({ locked: false, content: "限定の投稿" });
  });

  it("/u/{uid}: a profile with its tabs; the gallery holds only posts with an image and opens one full size", async () => {
    const author = await createMember(app, "ギャラリーの人");
    const url = await uploadImage(author, { width: 80, height: 60 });
    const { post: withImage } = await (await post(author, { content: "スクショ", imageUrl: url })).json();
    await post(author, { content: "文字だけ" });
    const profile = await app.request(`/u/${author.id}`);
    expect(profile.status).toBe(200);
    const html = await profile.text();
    expect(html).toContain("ギャラリーの人");
    expect(html).toContain(`href="/u/${author.id}/gallery"`);
    const gallery = await (await app.request(`/u/${author.id}/gallery`)).text();
    expect(gallery).toContain(`src="${url}"`);
    expect(gallery).toContain('width="80" height="60"');
    expect(gallery).toContain('loading="lazy"');
    expect(gallery).not.toContain("文字だけ");
    const full = await app.request(`/u/${author.id}/gallery?photo=${withImage.id}`);
    expect(full.status).toBe(200);
    expect(await full.text()).toContain("スクショ");
    const posts = await (await app.request(`/u/${author.id}/posts`)).text();
    expect(posts).toContain("文字だけ");
    expect(posts).toContain("スクショ");
  });

  it("a malformed uid is a fatal 404 `Page Not Found`; an unknown one the 404 page", async () => {
    const malformed = await app.request("/u/not-a-uid");
    expect(malformed.status).toBe(404);
    expect(await malformed.text()).toContain("Page Not Found: /u/not-a-uid");
    for (const path of ["/u/00000000-0000-4000-8000-000000000000", "/u/00000000-0000-4000-8000-000000000000/gallery"]) {
      const unknown = await app.request(path);
      expect(unknown.status, path).toBe(404);
      expect(await unknown.text()).toContain(`Page not found: ${path}`);
    }
  });
});

describe("footprints (足あと)", () => {
  const footprintsOf = (visitedId: string) => db().selectFrom("footprints").selectAll().where("visited_id", "=", visitedId).execute();

  it("two visits leave one row with the later time; a visit to one's own profile leaves none", async () => {
    const [visitor, visited] = await Promise.all([createMember(app, "訪ねる人"), createMember(app, "訪ねられる人")]);
    const first = new Date("2026-11-20T10:00:00.000Z");
    const later = new Date("2026-11-21T12:30:00.000Z");
    await recordFootprint({ db: db(), visitorId: visitor.id, visitedId: visited.id, at: first });
    await recordFootprint({ db: db(), visitorId: visitor.id, visitedId: visited.id, at: later });
    // A late-arriving earlier visit does not move the time back.
    await recordFootprint({ db: db(), visitorId: visitor.id, visitedId: visited.id, at: first });
    expect(await footprintsOf(visited.id)).toEqual([{ visitor_id: visitor.id, visited_id: visited.id, visited_at: later }]);
    await recordFootprint({ db: db(), visitorId: visited.id, visitedId: visited.id });
    expect(await db().selectFrom("footprints").selectAll().where("visitor_id", "=", visited.id).execute()).toEqual([]);
  });

  it("concurrent visits leave one row, at the latest of their times", async () => {
    const [visitor, visited] = await Promise.all([createMember(app, "同時に訪ねる人"), createMember(app, "同時に訪ねられる人")]);
    const base = Date.parse("2026-11-22T00:00:00.000Z");
    const times = Array.from({ length: 20 }, (_, i) => new Date(base + ((i * 7) % 20) * 1000));
    await Promise.all(times.map((at) => recordFootprint({ db: db(), visitorId: visitor.id, visitedId: visited.id, at })));
    expect(await footprintsOf(visited.id)).toEqual([{ visitor_id: visitor.id, visited_id: visited.id, visited_at: new Date(base + 19_000) }]);
  });

  it("a signed-in visit to a profile page records it; /mypage/footprints lists the visitor; the page needs a login", async () => {
    const visitor = await createBrowserMember(app, "足あとを残す人");
    const visited = await createBrowserMember(app, "足あとを見る人");
    expect((await visitor.page(`/u/${visited.id}`)).status).toBe(200);
    expect((await visitor.page(`/u/${visited.id}/gallery`)).status).toBe(200);
    expect((await visited.page(`/u/${visited.id}`)).status).toBe(200);
    expect(await footprintsOf(visited.id)).toHaveLength(1);
    const page = await visited.page("/mypage/footprints");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("足あとを残す人");
    expect(html).toContain(`href="/u/${visitor.id}"`);
    const anonymous = await app.request("/mypage/footprints");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/login?redirectTo=%2Fmypage%2Ffootprints");
    // An anonymous visit leaves nothing.
    expect((await app.request(`/u/${visitor.id}`)).status).toBe(200);
    expect(await footprintsOf(visitor.id)).toEqual([]);
  });
});
