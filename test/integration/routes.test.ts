import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Every route of the table of docs/product.md#screens answers, signed out and signed in, on whichever engine the run uses.
 * SCREEN_ROUTES holds the product's own screens, one row per route (child pages included), with a real id or slug where
 * the route has one, so a route that goes missing or breaks is one failing row. Where the product's first
 * specification left the sign-in column open, the expectation written here is what the app does, made explicit.
 */

/** What a request is expected to answer: the page, or a redirect to `location` (a string, or a pattern). */
type Expected = 200 | { redirect: string | RegExp };
/** The auth guard's answer for a signed-out visitor: the login page, coming back to the path asked for. */
const toLogin = (path: string): Expected => ({ redirect: `/login?${new URLSearchParams({ redirectTo: path })}` });

interface Fixtures {
  uid: string;
  roomId: string;
  eventId: string;
  gameSlug: string;
  communitySlug: string;
  coinPackageId: number;
}

interface Row {
  /** The route as docs/product.md#screens writes it. */
  route: string;
  /** The login column of docs/product.md#screens. */
  login: "yes" | "no" | "not shown";
  path: (f: Fixtures) => string;
  signedOut: (path: string) => Expected;
  signedIn: (path: string) => Expected;
}

/** Signed in, a form page whose first visit adds its idempotency key to the URL (docs/product.md#coins); that URL answers the page. */
const withKey = (path: string): Expected => ({ redirect: new RegExp(`^${path}\\?key=[0-9a-f-]{36}$`) });

const open = (route: string, path: Row["path"] = () => route): Row => ({ route, login: "no", path, signedOut: () => 200, signedIn: () => 200 });
const guarded = (route: string, path: Row["path"] = () => route): Row => ({ route, login: "yes", path, signedOut: toLogin, signedIn: () => 200 });

const SCREEN_ROUTES: Row[] = [
  open("/"),
  open("/feed"),
  open("/explore"),
  open("/events"),
  open("/events/{id}", (f) => `/events/${f.eventId}`),
  open("/games/{slug}", (f) => `/games/${f.gameSlug}`),
  open("/community/{slug}", (f) => `/community/${f.communitySlug}`),
  // Left open by the first specification: profiles are public.
  { ...open("/u/{uid}", (f) => `/u/${f.uid}`), login: "not shown" },
  { ...open("/u/{uid}/posts", (f) => `/u/${f.uid}/posts`), login: "not shown" },
  { ...open("/u/{uid}/gallery", (f) => `/u/${f.uid}/gallery`), login: "not shown" },
  guarded("/chat"),
  guarded("/chat/{roomId}", (f) => `/chat/${f.roomId}`),
  // Left open by the first specification: the app guards them.
  { ...guarded("/mypage"), login: "not shown" },
  guarded("/mypage/schedule"),
  { ...guarded("/mypage/footprints"), login: "not shown" },
  guarded("/mypage/gamer-edit"),
  guarded("/mypage/ticket-registration"),
  guarded("/notifications"),
  guarded("/settings"),
  guarded("/settings/coin-history"),
  guarded("/settings/subscription"),
  { ...guarded("/settings/store/transfer"), signedIn: withKey },
  guarded("/settings/store/subscription"),
  guarded("/settings/ticket-management"),
  open("/support"),
  open("/terms"),
  open("/privacy"),
  open("/inquiry"),
  open("/transaction-act"),
  // Left open by the first specification: the app guards it.
  { ...guarded("/coins/checkout/{id}", (f) => `/coins/checkout/${f.coinPackageId}`), login: "not shown", signedIn: withKey },
];

/** Pages added beyond those screens: an account's life beyond sign-in (docs/product.md#accounts). */
const ACCOUNT_ROUTES: Row[] = [
  guarded("/settings/password"),
  guarded("/settings/email"),
  guarded("/settings/account"),
  guarded("/settings/notifications"),
  // Reports (通報): the report dialog's page twin and the reporter's own history.
  guarded("/settings/reports"),
  // Discord's servers on profiles, opted into.
  guarded("/settings/privacy"),
  // 「ログイン中の端末」 (two-step verification's page too).
  guarded("/settings/security"),
  guarded("/report?type=user&id={uid}", (f) => `/report?type=user&id=${f.uid}`),
  guarded("/reset-password"),
  open("/forgot-password"),
  open("/auth/confirm", () => "/auth/confirm?token_hash=abc&type=recovery"),
];

const ROUTES = [...SCREEN_ROUTES, ...ACCOUNT_ROUTES];

let app: TestServer;
let member: Awaited<ReturnType<typeof createBrowserMember>>;
let fixtures: Fixtures;

beforeAll(async () => {
  app = await startTestServer({ seed: false });
  const db = app.database.db;
  const game = await db
    .insertInto("games")
    .values({ slug: "routes-test-game", name: "ルートテスト", name_kana: "るーとてすと" })
    .returning(["id", "slug"])
    .executeTakeFirstOrThrow();
  const community = await db
    .insertInto("communities")
    .values({ slug: "routes-test-community", name: "ルートテスト部", game_id: game.id, description: "説明です" })
    .returning("slug")
    .executeTakeFirstOrThrow();
  const startsAt = new Date(Date.now() + 7 * 86_400_000);
  const event = await db
    .insertInto("events")
    .values({ game_id: game.id, title: "ルートテスト大会", description: "説明です", starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 7_200_000), capacity: 10 })
    .returning("id")
    .executeTakeFirstOrThrow();

  // The signed-in member, and another with a listing and a post whose profile both visit.
  member = await createBrowserMember(app, "ルート確認");
  const seller: Member = await createMember(app, "出品者");
  const listing = await seller.api("/api/listings", {
    json: { title: "一緒にランクマッチ", gameSlug: game.slug, description: "楽しく", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 2 },
  });
  expect(listing.status).toBe(201);
  expect((await seller.api("/api/posts/create", { json: { content: "今日の戦績", imageUrl: null, isPublic: true } })).ok).toBe(true);
  const room = await member.api("/api/chat/rooms", { json: { participantIds: [seller.id], type: "DIRECT", name: null } });
  expect(room.ok).toBe(true);

  fixtures = {
    uid: seller.id,
    roomId: (await room.json()).data.chatRoom.id,
    eventId: event.id,
    gameSlug: game.slug,
    communitySlug: community.slug,
    coinPackageId: 1,
  };
});
afterAll(async () => {
  await app?.close();
});

/** The status, and the Location of a redirect. */
async function answer(response: Response) {
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get("location") };
}

function expectAnswer(got: { status: number; location: string | null }, expected: Expected) {
  if (expected === 200) {
    expect(got).toEqual({ status: 200, location: null });
  } else {
    expect([302, 303]).toContain(got.status);
    if (typeof expected.redirect === "string") expect(got.location).toBe(expected.redirect);
    else expect(got.location).toMatch(expected.redirect);
  }
}

describe("every route of docs/product.md#screens", () => {
  it("the table covers each route once", () => {
    expect(new Set(ROUTES.map((row) => row.route)).size).toBe(ROUTES.length);
    expect(SCREEN_ROUTES).toHaveLength(30);
  });

  describe.each(ROUTES)("$route (login: $login)", (row) => {
    it("signed out", async () => {
      const path = row.path(fixtures);
      expectAnswer(await answer(await app.request(path)), row.signedOut(path));
    });

    it("signed in", async () => {
      const path = row.path(fixtures);
      const expected = row.signedIn(path);
      const got = await answer(await member.page(path));
      expectAnswer(got, expected);
      // A redirect that stays on the same route (withKey) ends on the page.
      if (expected !== 200 && got.location?.startsWith(path)) expectAnswer(await answer(await member.page(got.location)), 200);
    });
  });

  it("an unknown id or slug is a 404, not an error (one per kind of parameter)", async () => {
    for (const path of [`/u/${randomUUID()}`, `/events/${randomUUID()}`, "/games/no-such-game", "/community/no-such-community", "/coins/checkout/99"]) {
      expect({ path, status: (await answer(await member.page(path))).status }).toEqual({ path, status: 404 });
    }
  });
});
