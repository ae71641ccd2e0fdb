import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHAT_ROOMS_PAGE_SIZE,
  COIN_HISTORY_LIMIT_MAX,
  LISTINGS_LIMIT_MAX,
  NOTIFICATIONS_LIMIT_MAX,
  POSTS_LIMIT_MAX,
  SUBSCRIPTIONS_LIST_MAX,
  BOOKINGS_LIST_MAX,
  USER_COMMUNITIES_MAX,
} from "~/lib/constants";
import { creditPurchase } from "~/models/coins.server";
import { createMember, type Member } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";

/**
 * No list is unbounded: every list the API answers has a maximum the server enforces. Each case below has
 * more rows than its maximum and asks for 10,000: it gets the maximum, not everything and not an error.
 */
let app: TestServer;
let member: Member;
const over = (max: number) => max + 7;

beforeAll(async () => {
  app = await startTestServer({ seed: true });
  member = await createMember(app, "リストの多い人");
}, 60_000);
afterAll(async () => {
  await app?.close();
});

const db = () => app.database.db;
/** n users with profiles of their own (rows only: they never sign in). */
async function users(n: number) {
  const ids = Array.from({ length: n }, () => randomUUID());
  await db()
    .insertInto("users")
    .values(ids.map((id, i) => ({ id, display_name: `ユーザー${i}` })))
    .execute();
  return ids;
}
async function getJson(pathname: string) {
  const response = await member.api(pathname);
  expect(response.status, pathname).toBe(200);
  return response.json();
}

describe("a request for 10,000 items gets the list's maximum", () => {
  it(`GET /api/posts: ${POSTS_LIMIT_MAX}`, async () => {
    await db()
      .insertInto("posts")
      .values(
        Array.from({ length: over(POSTS_LIMIT_MAX) }, (_, i) => ({
          author_id: member.id,
          content: `投稿${i}`,
          is_public: true,
        }))
      )
      .execute();
    const body = await getJson(`/api/posts?authorId=${member.id}&limit=10000`);
    expect(body.data.posts).toHaveLength(POSTS_LIMIT_MAX);
    expect(body.data.nextCursor).toBeTruthy();
  });

  it(`GET /api/listings: ${LISTINGS_LIMIT_MAX}`, async () => {
    const game = await db().selectFrom("games").select("id").orderBy("id").executeTakeFirstOrThrow();
    await db()
      .insertInto("listings")
      .values(
        Array.from({ length: over(LISTINGS_LIMIT_MAX) }, (_, i) => ({
          seller_id: member.id,
          game_id: game.id,
          title: `チケット${i}`,
          price_per_unit: 100,
          minutes_per_unit: 30,
          max_units: 1,
        }))
      )
      .execute();
    const body = await getJson(`/api/listings?sellerId=${member.id}&limit=10000`);
    expect(body.data.listings).toHaveLength(LISTINGS_LIMIT_MAX);
  });

  it(`GET /api/notifications: ${NOTIFICATIONS_LIMIT_MAX}`, async () => {
    await db()
      .insertInto("notifications")
      .values(
        Array.from({ length: over(NOTIFICATIONS_LIMIT_MAX) }, (_, i) => ({
          user_id: member.id,
          type: "system",
          title: `お知らせ${i}`,
        }))
      )
      .execute();
    const body = await getJson("/api/notifications?limit=10000");
    expect(body.data.notifications).toHaveLength(NOTIFICATIONS_LIMIT_MAX);
  });

  it(`GET /api/chat/rooms: ${CHAT_ROOMS_PAGE_SIZE}`, async () => {
    const others = await users(over(CHAT_ROOMS_PAGE_SIZE));
    for (const [i, other] of others.entries()) {
      const room = await db()
        .insertInto("chat_rooms")
        .values({ type: "GROUP", name: `グループ${i}` })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db()
        .insertInto("chat_participants")
        .values([
          { room_id: room.id, user_id: member.id },
          { room_id: room.id, user_id: other },
        ])
        .execute();
    }
    const body = await getJson("/api/chat/rooms?limit=10000&offset=0");
    expect(body.data.chatRooms).toHaveLength(CHAT_ROOMS_PAGE_SIZE);
  });

  it(`GET /api/coins/history: ${COIN_HISTORY_LIMIT_MAX}`, async () => {
    for (let i = 0; i < over(COIN_HISTORY_LIMIT_MAX); i++) {
      await db()
        .transaction()
        .execute((trx) =>
          creditPurchase(trx, {
            userId: member.id,
            coins: 100,
            reference: `list-limits-${i}`,
          })
        );
    }
    const body = await getJson("/api/coins/history?limit=10000");
    expect(body.data.transactions).toHaveLength(COIN_HISTORY_LIMIT_MAX);
    expect(body.data.hasMore).toBe(true);
  });

  it(`GET /api/tickets/all: ${BOOKINGS_LIST_MAX}`, async () => {
    const [seller] = await users(1);
    const game = await db().selectFrom("games").select("id").orderBy("id").executeTakeFirstOrThrow();
    const listing = await db()
      .insertInto("listings")
      .values({
        seller_id: seller!,
        game_id: game.id,
        title: "たくさん売れたチケット",
        price_per_unit: 100,
        minutes_per_unit: 30,
        max_units: 1,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Completed bookings, as the bench makes them: the only status with no open obligations to check.
    await sql`
      insert into bookings (listing_id, buyer_id, seller_id, title, price_per_unit, minutes_per_unit, units, total_price, total_minutes,
        desired_start_at, status, accept_deadline_at, accepted_at, started_at, ends_at, completed_at, completed_by, idempotency_key)
      select ${listing.id}::uuid, ${member.id}::uuid, ${seller}::uuid, 'たくさん売れたチケット', 100, 30, 1, 100, 30,
        now() - i * interval '1 day', 'completed', now() - i * interval '1 day' - interval '1 hour', now() - i * interval '1 day' - interval '2 hours',
        now() - i * interval '1 day', now() - i * interval '1 day' + interval '30 minutes', now() - i * interval '1 day' + interval '30 minutes',
        'buyer', 'list-limits-' || i
      from generate_series(1, ${over(BOOKINGS_LIST_MAX)}) as i`.execute(db());
    const body = await getJson("/api/tickets/all?limit=10000");
    expect(body.data.tickets).toHaveLength(BOOKINGS_LIST_MAX);
  });

  it(`GET /api/user/subscriptions and /api/auth/me: ${SUBSCRIPTIONS_LIST_MAX}`, async () => {
    const subscribees = await users(over(SUBSCRIPTIONS_LIST_MAX));
    await db()
      .insertInto("subscriptions")
      .values(
        subscribees.map((subscribeeId, i) => ({
          subscriber_id: member.id,
          subscribee_id: subscribeeId,
          expires_at: new Date(Date.now() + (i + 1) * 3600_000),
        }))
      )
      .execute();
    const listed = await getJson("/api/user/subscriptions?limit=10000");
    expect(listed.subscriptions).toHaveLength(SUBSCRIPTIONS_LIST_MAX);
    // Soonest to end first: the first hundred of them.
    expect(listed.subscriptions.map((s: { subscribee: { uid: string } }) => s.subscribee.uid)).toEqual(subscribees.slice(0, SUBSCRIPTIONS_LIST_MAX));
    expect((await getJson("/api/user/subscriptions?limit=3")).subscriptions).toHaveLength(3);
    expect((await getJson("/api/auth/me")).data.subscriptions).toHaveLength(SUBSCRIPTIONS_LIST_MAX);
    expect((await member.api("/api/user/subscriptions?limit=0")).status).toBe(400);
  });

  it(`GET /api/user/communities: ${USER_COMMUNITIES_MAX}`, async () => {
    const game = await db().selectFrom("games").select("id").orderBy("id").executeTakeFirstOrThrow();
    const communities = await db()
      .insertInto("communities")
      .values(
        Array.from({ length: over(USER_COMMUNITIES_MAX) }, (_, i) => ({
          slug: `list-limits-${i}`,
          name: `コミュニティ${String(i).padStart(3, "0")}`,
          game_id: game.id,
        }))
      )
      .returning("id")
      .execute();
    await db()
      .insertInto("community_members")
      .values(communities.map(({ id }) => ({ community_id: id, user_id: member.id })))
      .execute();
    const body = await getJson("/api/user/communities?limit=10000");
    expect(body.data.communities).toHaveLength(USER_COMMUNITIES_MAX);
    expect((await getJson("/api/user/communities?limit=5")).data.communities).toHaveLength(5);
    expect((await member.api("/api/user/communities?limit=abc")).status).toBe(400);
  });
});
