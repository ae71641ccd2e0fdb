import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compactSearchParams, EXPLORE_DEFAULTS, exploreHref, exploreSearchParams, type ExploreFilters } from "~/lib/explore";
import { parseExploreParams } from "~/lib/explore-query";
import { searchListings } from "~/models/listing-search.server";
import { createBrowserMember } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";
import { seenAt } from "../support/presence";

/**
 * Explore and home through the real server and database (ADR 023), on whichever engine the run uses. A
 * small market with known answers: every filter and sort, the recommended order across the online/offline boundary
 * and pages, the Japanese keyword search (kana either way, half-width, kanji, part of a name, several words, LIKE's
 * own characters), the triggers that keep ratings and search text current, blocks, and the page as a plain GET.
 */

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
  await market();
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.database.db;
const HOUR = 3600_000;
const listing: Record<string, string> = {};
const seller: Record<string, string> = {};

async function person(key: string, displayName: string, { online = false } = {}) {
  const id = randomUUID();
  await db().insertInto("auth_users").values({ id, email: `${id}@example.jp`, password_hash: "" }).execute();
  await db()
    .insertInto("users")
    .values({ id, display_name: displayName, online_announced: online })
    .execute();
  await seenAt(db(), id, online ? new Date() : new Date(Date.now() - 3 * HOUR));
  seller[key] = id;
  return id;
}

async function game(slug: string, name: string, nameKana: string) {
  const { id } = await db().insertInto("games").values({ slug, name, name_kana: nameKana }).returning("id").executeTakeFirstOrThrow();
  return id;
}

async function list(key: string, sellerKey: string, gameId: number, title: string, price: number, minutes: number, hoursAgo: number, status: "active" | "paused" = "active") {
  const { id } = await db()
    .insertInto("listings")
    .values({ seller_id: seller[sellerKey]!, game_id: gameId, title, price_per_unit: price, minutes_per_unit: minutes, max_units: 2, status, created_at: new Date(Date.now() - hoursAgo * HOUR) })
    .returning("id")
    .executeTakeFirstOrThrow();
  listing[key] = id;
}

/** Completed bookings of the seller's first listing, each reviewed with these stars (the trigger keeps the rating). */
async function rate(sellerKey: string, listingKey: string, stars: number[]) {
  for (const rating of stars) {
    const buyer = await person(`buyer-${randomUUID()}`, "購入者");
    const at = new Date(Date.now() - 48 * HOUR);
    const { id } = await db()
      .insertInto("bookings")
      .values({
        listing_id: listing[listingKey]!,
        buyer_id: buyer,
        seller_id: seller[sellerKey]!,
        title: "過去のセッション",
        price_per_unit: 100,
        minutes_per_unit: 30,
        units: 1,
        total_price: 100,
        total_minutes: 30,
        desired_start_at: at,
        accept_deadline_at: at,
        idempotency_key: randomUUID(),
        status: "completed",
        accepted_at: at,
        started_at: at,
        ends_at: at,
        completed_at: at,
        completed_by: "buyer",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db().insertInto("reviews").values({ booking_id: id, reviewer_id: buyer, reviewee_id: seller[sellerKey]!, rating, comment: "" }).execute();
  }
}

/**
 * Sellers: A 山田たろう (online, ★5), B サクラ (offline, ★4), C Blue (online, no reviews), D 佐藤 (offline, ★3).
 * Games: 月光伝説 (ゲッコウデンセツ) and Star Arena (スターアリーナ).
 */
async function market() {
  const gekko = await game("gekko-densetsu", "月光伝説", "ゲッコウデンセツ");
  const star = await game("star-arena", "Star Arena", "スターアリーナ");
  await person("A", "山田たろう", { online: true });
  await person("B", "サクラ");
  await person("C", "Blue", { online: true });
  await person("D", "佐藤");
  await list("A1", "A", gekko, "初心者向けコーチング", 500, 60, 1);
  await list("A2", "A", star, "ランク上げ手伝います", 1000, 30, 2);
  await list("B1", "B", gekko, "のんびり周回しましょう", 100, 30, 3);
  await list("C1", "C", star, "エイム練習（100%本気）", 300, 60, 4);
  await list("D1", "D", gekko, "ボス攻略", 2000, 90, 5);
  await list("D2", "D", star, "お休み中のチケット", 100, 30, 0, "paused");
  await rate("A", "A1", [5]);
  await rate("B", "B1", [4, 4]);
  await rate("D", "D1", [3]);
}

const search = async (filters: Partial<ExploreFilters>, { viewerId = null as string | null, pageSize = 20 } = {}) => {
  const { listings, hasMore } = await searchListings({ db: db(), viewerId, filters: { ...EXPLORE_DEFAULTS, ...filters }, pageSize });
  return { keys: listings.map((row) => Object.keys(listing).find((key) => listing[key] === row.id)), hasMore };
};
const keys = async (filters: Partial<ExploreFilters>) => (await search(filters)).keys;

describe("sorts", () => {
  it("newest, price (cheapest first) and rating (best first, unrated last); a paused listing never shows", async () => {
    expect(await keys({ sort: "newest" })).toEqual(["A1", "A2", "B1", "C1", "D1"]);
    expect(await keys({ sort: "price" })).toEqual(["B1", "C1", "A1", "A2", "D1"]);
    expect(await keys({ sort: "rating" })).toEqual(["A1", "A2", "B1", "D1", "C1"]);
  });

  it("recommended: sellers online now by rating, then everyone else by rating, paged across the boundary", async () => {
    expect(await keys({})).toEqual(["A1", "A2", "C1", "B1", "D1"]);
    expect(await search({ page: 0 }, { pageSize: 2 })).toEqual({ keys: ["A1", "A2"], hasMore: true });
    expect(await search({ page: 1 }, { pageSize: 2 })).toEqual({ keys: ["C1", "B1"], hasMore: true });
    expect(await search({ page: 2 }, { pageSize: 2 })).toEqual({ keys: ["D1"], hasMore: false });
    expect(await search({ page: 3 }, { pageSize: 2 })).toEqual({ keys: [], hasMore: false });
  });
});

describe("filters", () => {
  it("game, online, price range, rating and minutes each narrow to the known answer", async () => {
    expect(await keys({ game: "gekko-densetsu" })).toEqual(["A1", "B1", "D1"]);
    expect(await keys({ online: true })).toEqual(["A1", "A2", "C1"]);
    expect(await keys({ minPrice: 300, maxPrice: 1000, sort: "price" })).toEqual(["C1", "A1", "A2"]);
    expect(await keys({ minPrice: 1000, sort: "price" })).toEqual(["A2", "D1"]);
    expect(await keys({ maxPrice: 100 })).toEqual(["B1"]);
    expect(await keys({ minRating: 4, sort: "rating" })).toEqual(["A1", "A2", "B1"]);
    expect(await keys({ minutes: 60, sort: "newest" })).toEqual(["A1", "C1"]);
    expect(await keys({ game: "star-arena", online: true, maxPrice: 500 })).toEqual(["C1"]);
    expect(await keys({ game: "gekko-densetsu", minutes: 15 })).toEqual([]);
  });

  it("someone who went offline drops out of online and down the recommended order", async () => {
    await seenAt(db(), seller.C!, new Date(Date.now() - 10 * 60_000));
    try {
      expect(await keys({ online: true })).toEqual(["A1", "A2"]);
      expect(await keys({})).toEqual(["A1", "A2", "B1", "D1", "C1"]);
    } finally {
      await seenAt(db(), seller.C!, new Date());
    }
  });

  it("presence announcing someone gone or back moves their listings, new and old, out of and into the online set", async () => {
    const announce = (online: boolean) => db().updateTable("users").set({ online_announced: online }).where("id", "=", seller.C!).execute();
    await announce(false);
    try {
      expect(await keys({ online: true })).toEqual(["A1", "A2"]);
      expect(await keys({})).toEqual(["A1", "A2", "B1", "D1", "C1"]);
    } finally {
      await announce(true);
    }
    expect(await keys({ online: true })).toEqual(["A1", "A2", "C1"]);
    // A listing made while its seller is online is in the online set from the start (migration 0020's insert trigger).
    const online = await db()
      .selectFrom("listings")
      .select(["seller_online"])
      .where("seller_id", "in", [seller.A!, seller.B!, seller.C!])
      .orderBy("seller_id")
      .execute();
    expect(online.filter((row) => row.seller_online)).toHaveLength(3);
  });

  it("listings of someone who blocked the viewer, or whom the viewer blocked, are left out", async () => {
    const viewer = await person("viewer", "見る人");
    await db().insertInto("user_blocks").values({ blocker_id: seller.B!, blocked_id: viewer }).execute();
    await db().insertInto("user_blocks").values({ blocker_id: viewer, blocked_id: seller.D! }).execute();
    expect((await search({ game: "gekko-densetsu" }, { viewerId: viewer })).keys).toEqual(["A1"]);
    expect(await keys({ game: "gekko-densetsu" })).toEqual(["A1", "B1", "D1"]);
  });
});

describe("keyword search in Japanese", () => {
  it("finds a game by its kana in hiragana, katakana or half-width, and by its kanji name", async () => {
    for (const q of ["げっこう", "ゲッコウ", "ｹﾞｯｺｳ", "でんせつ", "月光", "月光伝説"]) {
      expect(await keys({ q, sort: "newest" }), q).toEqual(["A1", "B1", "D1"]);
    }
    expect(await keys({ q: "すたーありーな", sort: "newest" })).toEqual(["A2", "C1"]);
    expect(await keys({ q: "star", sort: "newest" })).toEqual(["A2", "C1"]);
    expect(await keys({ q: "ＳＴＡＲ", sort: "newest" })).toEqual(["A2", "C1"]);
  });

  it("finds a user by part of their name, in either kana, and a listing by a word of its title", async () => {
    expect(await keys({ q: "たろう" })).toEqual(["A1", "A2"]);
    expect(await keys({ q: "タロウ" })).toEqual(["A1", "A2"]);
    expect(await keys({ q: "山田" })).toEqual(["A1", "A2"]);
    expect(await keys({ q: "blue" })).toEqual(["C1"]);
    expect(await keys({ q: "えいむ" })).toEqual(["C1"]);
    expect(await keys({ q: "周回" })).toEqual(["B1"]);
  });

  it("with the sellers online now (the online filter, recommended's first part), paged across the boundary", async () => {
    expect(await keys({ q: "star", online: true })).toEqual(["A2", "C1"]);
    expect(await keys({ q: "star", online: true, sort: "price" })).toEqual(["C1", "A2"]);
    expect(await keys({ q: "月光", online: true })).toEqual(["A1"]);
    expect(await keys({ q: "佐藤", online: true })).toEqual([]);
    expect(await keys({ q: "月光" })).toEqual(["A1", "B1", "D1"]);
    expect(await search({ q: "月光", page: 0 }, { pageSize: 1 })).toEqual({ keys: ["A1"], hasMore: true });
    expect(await search({ q: "月光", page: 1 }, { pageSize: 1 })).toEqual({ keys: ["B1"], hasMore: true });
    expect(await search({ q: "月光", page: 2 }, { pageSize: 1 })).toEqual({ keys: ["D1"], hasMore: false });
    expect(await search({ q: "star", page: 1 }, { pageSize: 1 })).toEqual({ keys: ["C1"], hasMore: false });
  });

  it("every word must match; LIKE's own characters are plain text; nothing matching is an empty page", async () => {
    expect(await keys({ q: "月光 のんびり" })).toEqual(["B1"]);
    expect(await keys({ q: "月光 エイム" })).toEqual([]);
    expect(await keys({ q: "100%" })).toEqual(["C1"]);
    expect(await keys({ q: "%" })).toEqual(["C1"]);
    expect(await keys({ q: "1_0" })).toEqual([]);
    expect(await keys({ q: "_" })).toEqual([]);
    expect(await keys({ q: "存在しないことば" })).toEqual([]);
  });

  it("follows a new display name, a new title and a new review (the triggers of migration 0012)", async () => {
    await db().updateTable("users").set({ display_name: "Green" }).where("id", "=", seller.C!).execute();
    await db().updateTable("listings").set({ title: "エイムとリコイル練習" }).where("id", "=", listing.C1!).execute();
    try {
      expect(await keys({ q: "green" })).toEqual(["C1"]);
      expect(await keys({ q: "blue" })).toEqual([]);
      expect(await keys({ q: "りこいる" })).toEqual(["C1"]);
      await rate("C", "C1", [5, 5]);
      expect(await keys({ sort: "rating" })).toEqual(["A1", "A2", "C1", "B1", "D1"]);
      const row = await db().selectFrom("users").select(["rating_count", "rating_sum"]).where("id", "=", seller.C!).executeTakeFirstOrThrow();
      expect(row).toEqual({ rating_count: 2, rating_sum: 10 });
    } finally {
      await db().updateTable("users").set({ display_name: "Blue" }).where("id", "=", seller.C!).execute();
      await db().updateTable("listings").set({ title: "エイム練習（100%本気）" }).where("id", "=", listing.C1!).execute();
    }
  });
});

describe("the URL", () => {
  it("round-trips every filter, leaves defaults out and drops what does not fit", () => {
    const filters: ExploreFilters = { q: "月光 たろう", game: "gekko-densetsu", online: true, minPrice: 300, maxPrice: 1000, minRating: 4, minutes: 60, sort: "price", page: 2 };
    expect(parseExploreParams(exploreSearchParams(filters))).toEqual(filters);
    expect(exploreHref(EXPLORE_DEFAULTS)).toBe("/explore");
    expect(parseExploreParams(new URLSearchParams("q=&game=&minPrice=&maxPrice=&minRating=&minutes=&sort=recommended"))).toEqual(EXPLORE_DEFAULTS);
    expect(parseExploreParams(new URLSearchParams("game=../etc&online=yes&minPrice=abc&minRating=9&minutes=45&sort=cheap&page=-1"))).toEqual(EXPLORE_DEFAULTS);
    expect(parseExploreParams(new URLSearchParams("minPrice=5000&maxPrice=100"))).toMatchObject({ minPrice: 100, maxPrice: 5000 });
    // What the form sends with JavaScript: the same search, without its empty fields and default order.
    const form = new FormData();
    for (const [key, value] of Object.entries({ q: " 月光 ", game: "gekko-densetsu", minPrice: "", maxPrice: "1000", minRating: "", minutes: "", sort: "recommended" })) form.append(key, value);
    expect(compactSearchParams(form).toString()).toBe("q=%E6%9C%88%E5%85%89&game=gekko-densetsu&maxPrice=1000");
  });

  it("the page is a plain GET form: the query string's results in order, the form showing them, links that keep them", async () => {
    const response = await app.request("/explore?game=gekko-densetsu&sort=price&q=&minPrice=");
    expect(response.status).toBe(200);
    const html = await response.text();
    const order = [...html.matchAll(/href="\/tickets\/([0-9a-f-]{36})"/g)].map(([, id]) => Object.keys(listing).find((key) => listing[key] === id));
    expect(order).toEqual(["B1", "A1", "D1"]);
    expect(html).toMatch(/<form[^>]*method="get"[^>]*action="\/explore/);
    expect(html).toMatch(/<option value="gekko-densetsu" selected="">/);
    expect(html).toMatch(/<option value="price" selected="">/);
    // Each card's seller links to their profile.
    expect(html).toContain(`href="/u/${seller.A}"`);
  });

  it("nothing found: an empty state offering to drop each filter; unusable values and an unknown game are a 200 without them", async () => {
    const empty = await (await app.request("/explore?game=star-arena&minutes=90")).text();
    expect(empty).toContain("条件に合うチケットが見つかりませんでした。");
    expect(empty).toContain('href="/explore?minutes=90"');
    expect(empty).toContain('href="/explore?game=star-arena"');
    for (const path of ["/explore?minPrice=abc&sort=zzz&page=-5&online=maybe", "/explore?game=no-such-game", `/explore?q=${"あ".repeat(500)}`, "/explore?q=%27%22%3Cscript%3E"]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
    }
    // A NUL is refused before any page reads the query (ADR 054): a 400, never a 500.
    expect((await app.request("/explore?q=%00%27%22%3Cscript%3E")).status).toBe(400);
    const unknownGame = await (await app.request("/explore?game=no-such-game")).text();
    expect([...unknownGame.matchAll(/href="\/tickets\//g)]).toHaveLength(5);
  });
});

describe("home", () => {
  it("renders in plain HTML: online sellers, popular games with their counts, the way to every section", async () => {
    const response = await app.request("/");
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const href of ["/explore", "/games", "/events", "/feed"]) expect(html).toContain(`href="${href}"`);
    // Online now and selling: 山田たろう and Blue, not the offline ones.
    expect(html).toContain("山田たろう");
    expect(html).toContain(`href="/u/${seller.C}"`);
    expect(html).not.toContain(`href="/u/${seller.B}"`);
    expect(html).toContain('href="/games/gekko-densetsu"');
    expect(html).toContain("チケット 3件");
    // Small: the HTML with its data stays well under 40 KB before compression.
    expect(Buffer.byteLength(html)).toBeLessThan(40_000);
  });

  it("keeps each game's count of active listings through creation, pausing, a move to another game and deletion (migration 0027)", async () => {
    const counted = async () => {
      const rows = await db()
        .selectFrom("games as g")
        .select(["g.slug", "g.active_listings_count as kept"])
        .select((eb) => eb.selectFrom("listings as l").select(eb.fn.countAll<number>().as("n")).whereRef("l.game_id", "=", "g.id").where("l.status", "=", "active").as("counted"))
        .orderBy("g.slug")
        .execute();
      for (const row of rows) expect(row.kept, row.slug).toBe(Number(row.counted));
      return Object.fromEntries(rows.map((row) => [row.slug, row.kept]));
    };
    const before = await counted();
    expect(before).toMatchObject({ "gekko-densetsu": 3, "star-arena": 2 });
    const other = await game("count-test", "カウント", "カウント");
    await list("T1", "B", other, "数えるチケット", 100, 30, 0);
    await list("T2", "B", other, "もう一枚", 100, 30, 0);
    expect(await counted()).toMatchObject({ ...before, "count-test": 2 });
    // One statement pausing one and moving the other to another game: each game gets what it lost and gained.
    const gekko = (await db().selectFrom("games").select("id").where("slug", "=", "gekko-densetsu").executeTakeFirstOrThrow()).id;
    await sql`update listings set status = case when id = ${listing.T1!} then 'paused' else status end,
      game_id = case when id = ${listing.T2!} then ${gekko} else game_id end where id in (${listing.T1!}, ${listing.T2!})`.execute(db());
    expect(await counted()).toMatchObject({ "gekko-densetsu": 4, "star-arena": 2, "count-test": 0 });
    // An update that moves nothing (a title) changes no count; deleting an active listing takes it off.
    await db().updateTable("listings").set({ title: "題名だけ変更" }).where("id", "=", listing.T2!).execute();
    await db().deleteFrom("listings").where("id", "in", [listing.T1!, listing.T2!]).execute();
    expect(await counted()).toMatchObject({ "gekko-densetsu": 3, "star-arena": 2, "count-test": 0 });
    await db().deleteFrom("games").where("id", "=", other).execute();
  });

  it("signed in, starts with the next session and the unread counts", async () => {
    const member = await createBrowserMember(app, "ホームの人");
    const html = await (await member.page("/")).text();
    expect(html).toContain("次のセッション");
    expect(html).toContain("予定はまだありません。");
    expect(html).toMatch(/data-testid="home-unread-messages">0件/);
    expect(html).toMatch(/data-testid="home-unread-notifications">\d+件/);
  });
});
