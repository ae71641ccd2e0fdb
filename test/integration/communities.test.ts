import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinCommunity, leaveCommunity } from "~/models/communities.server";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Game pages and communities through the real server, on whichever engine the run uses:
 * the member count under concurrency, posting into a community, and the pages without JavaScript.
 */

let app: TestServer;
let gameId: number;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
  const game = await db()
    .insertInto("games")
    .values({ slug: "community-test-game", name: "コミュニティテスト", name_kana: "コミュニティテスト", sort_order: 99 })
    .returning("id")
    .executeTakeFirstOrThrow();
  gameId = game.id;
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.database.db;
let counter = 0;
/** A fresh community of the test game. */
async function newCommunity(name = "テストコミュニティ") {
  counter += 1;
  const slug = `test-community-${counter}-${Date.now()}`;
  const row = await db().insertInto("communities").values({ slug, name, game_id: gameId, description: "説明です" }).returning("id").executeTakeFirstOrThrow();
  return { id: row.id, slug, name };
}
const countsOf = async (communityId: string) => {
  const community = await db().selectFrom("communities").select("members_count").where("id", "=", communityId).executeTakeFirstOrThrow();
  const rows = await db().selectFrom("community_members").select((eb) => eb.fn.countAll<string>().as("n")).where("community_id", "=", communityId).executeTakeFirstOrThrow();
  return { membersCount: community.members_count, rows: Number(rows.n) };
};
const postsOf = async (authorId: string) => db().selectFrom("posts").select(["id", "community_id"]).where("author_id", "=", authorId).execute();
const form = (fields: Record<string, string>) => ({ method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });

describe("joining and leaving keep members_count exact", () => {
  it("join, join again, leave, leave again", async () => {
    const community = await newCommunity();
    const member = await createMember(app, "参加する人");
    expect(await joinCommunity({ db: db(), userId: member.id, slug: community.slug })).toMatchObject({ joined: true, community: { membersCount: 1 } });
    expect(await joinCommunity({ db: db(), userId: member.id, slug: community.slug })).toMatchObject({ joined: false });
    expect(await countsOf(community.id)).toEqual({ membersCount: 1, rows: 1 });
    expect(await leaveCommunity({ db: db(), userId: member.id, slug: community.slug })).toMatchObject({ left: true, community: { membersCount: 0 } });
    expect(await leaveCommunity({ db: db(), userId: member.id, slug: community.slug })).toMatchObject({ left: false });
    expect(await countsOf(community.id)).toEqual({ membersCount: 0, rows: 0 });
  });

  it("20 users joining at once → 20; one user joining twice at once → one row; leaving at once → 0", async () => {
    const community = await newCommunity();
    const members = await Promise.all(Array.from({ length: 20 }, (_, index) => createMember(app, `同時参加${index}`)));
    await Promise.all(members.map((member) => joinCommunity({ db: db(), userId: member.id, slug: community.slug })));
    expect(await countsOf(community.id)).toEqual({ membersCount: 20, rows: 20 });

    const twice = await newCommunity();
    const results = await Promise.all([0, 1, 2].map(() => joinCommunity({ db: db(), userId: members[0]!.id, slug: twice.slug })));
    expect(results.filter((result) => result.joined)).toHaveLength(1);
    expect(await countsOf(twice.id)).toEqual({ membersCount: 1, rows: 1 });

    await Promise.all([...members, members[0]!].map((member) => leaveCommunity({ db: db(), userId: member.id, slug: community.slug })));
    expect(await countsOf(community.id)).toEqual({ membersCount: 0, rows: 0 });
  });

  it("an unknown community and a user without a profile are refused", async () => {
    const member = await createMember(app, "迷子");
    await expect(joinCommunity({ db: db(), userId: member.id, slug: "no-such-community" })).rejects.toMatchObject({ status: 404 });
    const community = await newCommunity();
    await expect(joinCommunity({ db: db(), userId: "00000000-0000-0000-0000-000000000000", slug: community.slug })).rejects.toMatchObject({ status: 403 });
    expect(await countsOf(community.id)).toEqual({ membersCount: 0, rows: 0 });
  });
});

describe("posting into a community", () => {
  let community: { id: string; slug: string; name: string };
  let member: Member;
  beforeAll(async () => {
    community = await newCommunity("投稿するコミュニティ");
    member = await createMember(app, "コミュニティ投稿者");
    await joinCommunity({ db: db(), userId: member.id, slug: community.slug });
  });

  it("a member's post is tagged and shows on the community page and the game page", async () => {
    const response = await member.api("/api/posts/create", { json: { content: "コミュニティへの初投稿", imageUrl: null, isPublic: true, communityId: community.id } });
    expect(response.status).toBe(201);
    expect(await postsOf(member.id)).toEqual([{ id: expect.any(String), community_id: community.id }]);
    const page = await app.request(`/community/${community.slug}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("コミュニティへの初投稿");
    const gamePage = await app.request("/games/community-test-game");
    expect(gamePage.status).toBe(200);
    const html = await gamePage.text();
    expect(html).toContain("コミュニティへの初投稿");
    expect(html).toContain(`/community/${community.slug}`);
  });

  it("a post without a community is not on the community page; an empty communityId is none", async () => {
    const response = await member.api("/api/posts/create", { json: { content: "タグなしの投稿", imageUrl: null, isPublic: true, communityId: "" } });
    expect(response.status).toBe(201);
    expect(await (await app.request(`/community/${community.slug}`)).text()).not.toContain("タグなしの投稿");
    expect(await (await app.request("/games/community-test-game")).text()).not.toContain("タグなしの投稿");
  });

  it("a non-member is a 403 with the Japanese message and nothing written; a malformed id is a 400", async () => {
    const outsider = await createMember(app, "部外者");
    const before = await db().selectFrom("rate_limit_windows").selectAll().execute();
    const response = await outsider.api("/api/posts/create", { json: { content: "入っていないのに投稿", imageUrl: null, isPublic: true, communityId: community.id } });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toMatchObject({ code: "not_community_member", message: "このコミュニティに参加してから投稿してください" });
    expect(await postsOf(outsider.id)).toEqual([]);
    expect(await db().selectFrom("rate_limit_windows").selectAll().execute()).toEqual(before);
    const malformed = await outsider.api("/api/posts/create", { json: { content: "壊れたID", communityId: "not-a-uuid" } });
    expect(malformed.status).toBe(400);
    expect(await postsOf(outsider.id)).toEqual([]);
  });

  it("subscriber-only posts in a community stay locked for others (the visibility rules hold)", async () => {
    const response = await member.api("/api/posts/create", { json: { content: "サブスク限定のコミュニティ投稿", imageUrl: null, isPublic: false, communityId: community.id } });
    expect(response.status).toBe(201);
    const page = await (await app.request(`/community/${community.slug}`)).text();
    expect(page).not.toContain("サブスク限定のコミュニティ投稿");
  });
});

describe("the pages without JavaScript", () => {
  it("/games lists the games; /games/{slug} answers 200; unknown or malformed slugs are 404", async () => {
    const list = await app.request("/games");
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain('href="/games/community-test-game"');
    expect(html).toContain("コミュニティテスト");
    // Its upcoming events (shown in Asia/Tokyo), not its past ones.
    const start = new Date(Date.UTC(2030, 0, 1, 12, 30));
    await db()
      .insertInto("events")
      .values([
        { game_id: gameId, title: "ゲームページの大会", starts_at: start, ends_at: new Date(start.getTime() + 3600_000), capacity: 8 },
        { game_id: gameId, title: "終わった大会", starts_at: new Date(Date.now() - 86_400_000), ends_at: new Date(Date.now() - 82_800_000), capacity: 8 },
      ])
      .execute();
    const gamePage = await app.request("/games/community-test-game");
    expect(gamePage.status).toBe(200);
    const gameHtml = await gamePage.text();
    expect(gameHtml).toContain("ゲームページの大会");
    expect(gameHtml).toContain("2030/01/01 21:30");
    expect(gameHtml).not.toContain("終わった大会");
    for (const path of ["/games/no-such-game", "/games/UPPER", "/games/a_b", `/games/${"a".repeat(65)}`, "/community/no-such-community", "/community/Bad%20Slug"]) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });

  it("a browser joins, posts through /posts/new with the community preselected, and leaves, with toasts", async () => {
    const community = await newCommunity("フォームのコミュニティ");
    const browser = await createBrowserMember(app, "フォームの人");
    const anonymous = await (await app.request(`/community/${community.slug}`)).text();
    expect(anonymous).toContain("ログインして参加する");
    expect((await app.request(`/community/${community.slug}`, form({ intent: "join" }))).status).toBe(302);
    expect(await countsOf(community.id)).toEqual({ membersCount: 0, rows: 0 });

    const joined = await browser.page(`/community/${community.slug}`, form({ intent: "join" }));
    expect(joined.status).toBe(302);
    expect(joined.headers.get("Location")).toBe(`/community/${community.slug}`);
    expect(await countsOf(community.id)).toEqual({ membersCount: 1, rows: 1 });
    const page = await (await browser.page(`/community/${community.slug}`)).text();
    expect(page).toContain(`「${community.name}」に参加しました`);
    expect(page).toContain(`/posts/new?community=${community.slug}`);
    expect(page).toContain("退会する");

    const newPost = await (await browser.page(`/posts/new?community=${community.slug}`)).text();
    expect(newPost).toMatch(new RegExp(`<option value="${community.id}" selected[^>]*>`));
    expect(newPost).toContain(`name="redirectTo" value="/community/${community.slug}"`);
    const body = new FormData();
    body.set("content", "フォームからコミュニティへ");
    body.set("communityId", community.id);
    body.set("redirectTo", `/community/${community.slug}`);
    const posted = await browser.page("/posts/new", { method: "POST", body });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe(`/community/${community.slug}`);
    expect(await (await browser.page(`/community/${community.slug}`)).text()).toContain("フォームからコミュニティへ");

    const left = await browser.page(`/community/${community.slug}`, form({ intent: "leave" }));
    expect(left.status).toBe(302);
    expect(await countsOf(community.id)).toEqual({ membersCount: 0, rows: 0 });
    expect(await (await browser.page(`/community/${community.slug}`)).text()).toContain(`「${community.name}」から退会しました`);

    // No longer a member: the page refuses the post with the reason, and writes nothing.
    const refusedBody = new FormData();
    refusedBody.set("content", "退会後の投稿");
    refusedBody.set("communityId", community.id);
    const refused = await browser.page("/posts/new", { method: "POST", body: refusedBody });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("このコミュニティに参加してから投稿してください");
    expect((await postsOf(browser.id)).map((post) => post.community_id)).toEqual([community.id]);

    const bad = await browser.page(`/community/${community.slug}`, form({ intent: "explode" }));
    expect(bad.status).toBe(400);
    expect((await browser.page("/community/no-such-community", form({ intent: "join" }))).status).toBe(404);
  });

  it("GET /api/user/communities lists the caller's communities; anonymous is 401", async () => {
    const community = await newCommunity("APIのコミュニティ");
    const member = await createMember(app, "APIの人");
    await joinCommunity({ db: db(), userId: member.id, slug: community.slug });
    const response = await member.api("/api/user/communities");
    expect(response.status).toBe(200);
    expect((await response.json()).data.communities).toEqual([expect.objectContaining({ id: community.id, slug: community.slug, name: community.name, membersCount: 1 })]);
    expect((await app.request("/api/user/communities")).status).toBe(401);
  });

  it("the community page pages its posts by cursor, as /feed does", async () => {
    const community = await newCommunity("たくさん投稿");
    const member = await createBrowserMember(app, "たくさん投稿する人");
    await joinCommunity({ db: db(), userId: member.id, slug: community.slug });
    const base = Date.now() - 3600_000;
    await db()
      .insertInto("posts")
      .values(Array.from({ length: 25 }, (_, index) => ({ author_id: member.id, content: `連投${String(index).padStart(2, "0")}番`, community_id: community.id, created_at: new Date(base + index * 1000) })))
      .execute();
    const first = await (await app.request(`/community/${community.slug}`)).text();
    expect(first).toContain("連投24番");
    expect(first).not.toContain("連投04番");
    const next = /href="(\/community\/[^"?]+\?cursor=[^"]+)"/.exec(first)?.[1];
    expect(next).toBeDefined();
    const second = await (await app.request(next!.replace(/&amp;/g, "&"))).text();
    expect(second).toContain("連投04番");
    expect(second).not.toContain("連投24番");
    expect((await app.request(`/community/${community.slug}?cursor=nonsense`)).status).toBe(400);
  });
});
