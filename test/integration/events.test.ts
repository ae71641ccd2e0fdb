import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_REMINDER_BEFORE_MS } from "~/lib/constants";
import { EventError, eventReminderJob, getEvent, joinEvent, leaveEvent, listEvents } from "~/models/events.server";
import { createBrowserMember } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Events through the real server and database (docs/product.md#data), on whichever engine the run uses: seats under
 * concurrency, leaving, the refusals, the reminder sent once however many sweepers race, and the pages without
 * JavaScript. Events start days from now, so the server's own sweeper (on the real clock) never reminds anyone here,
 * and each reminder scenario has a start of its own, so a moved clock reaches only its event.
 */

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.database.db;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

let gameIds: Record<string, number> = {};
async function gameId(slug: string, name: string) {
  if (gameIds[slug]) return gameIds[slug]!;
  await db().insertInto("games").values({ slug, name, name_kana: name }).onConflict((oc) => oc.column("slug").doNothing()).execute();
  const { id } = await db().selectFrom("games").select("id").where("slug", "=", slug).executeTakeFirstOrThrow();
  gameIds = { ...gameIds, [slug]: id };
  return id;
}

/** An event of the game, starting `inMs` from now (negative: already started), for two hours. */
async function createEvent({ slug = "event-test-game", title = "テストイベント", inMs = 10 * DAY, capacity = 10 } = {}) {
  const startsAt = new Date(Date.now() + inMs);
  const { id } = await db()
    .insertInto("events")
    .values({ game_id: await gameId(slug, slug === "event-test-game" ? "イベント用ゲーム" : `ゲーム ${slug}`), title, description: "説明です", starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 2 * HOUR), capacity })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id, startsAt };
}

/** Members with a profile, made straight in the database (the many-joins scenarios need dozens). */
async function profiles(count: number, prefix = "参加者") {
  const rows = Array.from({ length: count }, (_, index) => ({ id: randomUUID(), name: `${prefix}${index + 1}` }));
  await db()
    .insertInto("auth_users")
    .values(rows.map((row) => ({ id: row.id, email: `${row.id}@example.jp`, password_hash: "" })))
    .execute();
  await db()
    .insertInto("users")
    .values(rows.map((row) => ({ id: row.id, display_name: row.name })))
    .execute();
  return rows.map((row) => row.id);
}

const seats = async (eventId: string) => {
  const event = await db().selectFrom("events").select("participants_count").where("id", "=", eventId).executeTakeFirstOrThrow();
  const rows = await db().selectFrom("event_participants").select((eb) => eb.fn.countAll<string>().as("n")).where("event_id", "=", eventId).executeTakeFirstOrThrow();
  return { count: event.participants_count, rows: Number(rows.n) };
};

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EventError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error("expected a refusal");
};

describe("seats under concurrency", () => {
  it("50 concurrent joins for 10 seats: exactly 10 participants and participants_count 10; the rest are 409 満員", async () => {
    const { id } = await createEvent({ capacity: 10 });
    const users = await profiles(50);
    const now = new Date();
    const results = await Promise.allSettled(users.map((userId) => joinEvent({ db: db(), eventId: id, userId, now })));
    const joined = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect(joined).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const { reason } of refused) expect(reason).toMatchObject({ status: 409, code: "event_full" });
    expect(await seats(id)).toEqual({ count: 10, rows: 10 });
  });

  it("the same member joining twice at once takes one seat, and joining again changes nothing", async () => {
    const { id } = await createEvent({ capacity: 3 });
    const [userId] = await profiles(1);
    const now = new Date();
    const results = await Promise.all([joinEvent({ db: db(), eventId: id, userId: userId!, now }), joinEvent({ db: db(), eventId: id, userId: userId!, now })]);
    expect(results.map((result) => result.joined).sort()).toEqual([false, true]);
    expect(await joinEvent({ db: db(), eventId: id, userId: userId!, now })).toEqual({ joined: false, participantsCount: 1 });
    expect(await seats(id)).toEqual({ count: 1, rows: 1 });
  });

  it("leaving frees a seat that someone else can take; leaving twice changes nothing", async () => {
    const { id } = await createEvent({ capacity: 1 });
    const [first, second] = await profiles(2);
    const now = new Date();
    await joinEvent({ db: db(), eventId: id, userId: first!, now });
    expect(await refusal(joinEvent({ db: db(), eventId: id, userId: second!, now }))).toEqual({ status: 409, code: "event_full" });
    expect(await leaveEvent({ db: db(), eventId: id, userId: first!, now })).toEqual({ left: true, participantsCount: 0 });
    expect(await leaveEvent({ db: db(), eventId: id, userId: first!, now })).toEqual({ left: false, participantsCount: 0 });
    expect(await joinEvent({ db: db(), eventId: id, userId: second!, now })).toEqual({ joined: true, participantsCount: 1 });
    expect(await seats(id)).toEqual({ count: 1, rows: 1 });
  });

  it("refuses a started event (409), an unknown one (404) and a member without a profile (403), writing nothing", async () => {
    const { id, startsAt } = await createEvent({ capacity: 5 });
    const [userId] = await profiles(1);
    expect(await refusal(joinEvent({ db: db(), eventId: id, userId: userId!, now: startsAt }))).toEqual({ status: 409, code: "event_started" });
    expect(await refusal(joinEvent({ db: db(), eventId: id, userId: userId!, now: new Date(startsAt.getTime() + HOUR) }))).toEqual({ status: 409, code: "event_started" });
    expect(await refusal(joinEvent({ db: db(), eventId: randomUUID(), userId: userId!, now: new Date() }))).toEqual({ status: 404, code: "event_not_found" });
    expect(await refusal(leaveEvent({ db: db(), eventId: randomUUID(), userId: userId!, now: new Date() }))).toEqual({ status: 404, code: "event_not_found" });
    const noProfile = randomUUID();
    await db().insertInto("auth_users").values({ id: noProfile, email: `${noProfile}@example.jp`, password_hash: "" }).execute();
    expect(await refusal(joinEvent({ db: db(), eventId: id, userId: noProfile, now: new Date() }))).toEqual({ status: 403, code: "profile_required" });
    expect(await seats(id)).toEqual({ count: 0, rows: 0 });
  });
});

describe("lists", () => {
  it("upcoming soonest first and past latest first, by game, paged", async () => {
    const slug = "list-game";
    const base = Date.now();
    for (const days of [3, 1, 2, -1, -2]) await createEvent({ slug, title: `一覧${days}`, inMs: days * DAY });
    const now = new Date(base);
    const upcoming = await listEvents({ db: db(), now, when: "upcoming", gameSlug: slug, limit: 2 });
    expect(upcoming.events.map((event) => event.title)).toEqual(["一覧1", "一覧2"]);
    expect(upcoming.hasMore).toBe(true);
    const second = await listEvents({ db: db(), now, when: "upcoming", gameSlug: slug, limit: 2, page: 1 });
    expect(second).toMatchObject({ events: [{ title: "一覧3", game: { slug } }], hasMore: false });
    const past = await listEvents({ db: db(), now, when: "past", gameSlug: slug });
    expect(past.events.map((event) => event.title)).toEqual(["一覧-1", "一覧-2"]);
    expect((await listEvents({ db: db(), now, when: "upcoming", gameSlug: "no-such-game" })).events).toEqual([]);
  });
});

describe("the reminder an hour before the start", () => {
  it("is not sent before the hour, is sent once when three sweepers race, and not again", async () => {
    const { id, startsAt } = await createEvent({ title: "リマインドされる会", capacity: 5, inMs: 20 * DAY });
    const users = await profiles(3, "リマインド");
    for (const userId of users) await joinEvent({ db: db(), eventId: id, userId, now: new Date() });
    const reminders = () => db().selectFrom("notifications").selectAll().where("type", "=", "event_reminder").where("link", "=", `/events/${id}`).execute();
    const run = (now: Date) => eventReminderJob.run({ db: db(), realtime: app.server.realtime, now });

    expect(await run(new Date(startsAt.getTime() - EVENT_REMINDER_BEFORE_MS - 1000))).toBe(0);
    expect(await reminders()).toHaveLength(0);
    const due = new Date(startsAt.getTime() - EVENT_REMINDER_BEFORE_MS + 1000);
    const counts = await Promise.all([run(due), run(due), run(due)]);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(3);
    const sent = await reminders();
    expect(sent.map((row) => row.user_id).sort()).toEqual([...users].sort());
    expect(sent[0]).toMatchObject({ title: "まもなく「リマインドされる会」が始まります" });
    expect(await run(new Date(startsAt.getTime() - 60_000))).toBe(0);
    expect(await reminders()).toHaveLength(3);
    const marked = await db().selectFrom("event_participants").select("reminded_at").where("event_id", "=", id).execute();
    expect(marked.every((row) => row.reminded_at !== null)).toBe(true);
  });

  it("is not sent for an event that has started", async () => {
    const { id, startsAt } = await createEvent({ title: "始まった会", capacity: 5, inMs: 30 * DAY });
    const [userId] = await profiles(1);
    await joinEvent({ db: db(), eventId: id, userId: userId!, now: new Date() });
    await eventReminderJob.run({ db: db(), realtime: app.server.realtime, now: new Date(startsAt.getTime() + 1000) });
    expect(await db().selectFrom("notifications").select("id").where("link", "=", `/events/${id}`).execute()).toHaveLength(0);
  });
});

describe("the pages without JavaScript", () => {
  const form = (fields: Record<string, string>) => ({ method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });

  it("/events lists upcoming and past, filtered by ?game=, in Japanese time; a bad query is a 400", async () => {
    await createEvent({ slug: "page-game-a", title: "ページのAの会", inMs: 5 * DAY });
    await createEvent({ slug: "page-game-b", title: "ページのBの会", inMs: 5 * DAY });
    await createEvent({ slug: "page-game-a", title: "終わったAの会", inMs: -5 * DAY });
    const all = await app.request("/events");
    expect(all.status).toBe(200);
    const html = await all.text();
    expect(html).toContain("開催予定のイベント");
    expect(html).toContain("ページのBの会");
    const filtered = await (await app.request("/events?game=page-game-a")).text();
    expect(filtered).toContain("ページのAの会");
    expect(filtered).toContain("終わったAの会");
    expect(filtered).not.toContain("ページのBの会");
    const empty = await (await app.request("/events?game=no-such-game")).text();
    expect(empty).toContain("開催予定のイベントはまだありません");
    expect((await app.request("/events?game=%00")).status).toBe(400);
    expect((await app.request("/events?page=-1")).status).toBe(400);
  });

  it("detail: malformed id and unknown are 404; a visitor sees a login link that comes back", async () => {
    const { id, startsAt } = await createEvent({ title: "詳細の会", capacity: 4 });
    expect((await app.request("/events/not-a-uuid")).status).toBe(404);
    expect((await app.request(`/events/${randomUUID()}`)).status).toBe(404);
    const page = await app.request(`/events/${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("詳細の会");
    expect(html).toContain("残り4席");
    const tokyo = new Intl.DateTimeFormat("ja-JP", { timeZone: "Asia/Tokyo", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(startsAt);
    expect(html).toContain(tokyo);
    expect(html).toContain(`/login?redirectTo=%2Fevents%2F${id}`);
    const anonymous = await app.request(`/events/${id}`, form({ intent: "join" }));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toContain("/login?redirectTo=");
  });

  it("join and leave through plain forms with cookies, each with a toast; a bad intent is a 400; a full event is a 409", async () => {
    const { id } = await createEvent({ title: "フォームの会", capacity: 1 });
    const member = await createBrowserMember(app, "フォームで参加");
    const other = await createBrowserMember(app, "あとから来た人");
    const joined = await member.page(`/events/${id}`, form({ intent: "join" }));
    expect(joined.status).toBe(302);
    expect(joined.headers.get("Location")).toBe(`/events/${id}`);
    const after = await (await member.page(`/events/${id}`)).text();
    expect(after).toContain("イベントに参加しました");
    expect(after).toContain("参加を取り消す");
    expect(after).toContain("フォームで参加");
    expect(after).toContain(`/u/${member.id}`);
    expect(after).toContain("満員");

    const full = await other.page(`/events/${id}`, form({ intent: "join" }));
    expect(full.status).toBe(409);
    expect(await full.text()).toContain("満員のため参加できません");
    expect((await other.page(`/events/${id}`, form({ intent: "dance" }))).status).toBe(400);
    expect(await seats(id)).toEqual({ count: 1, rows: 1 });

    const left = await member.page(`/events/${id}`, form({ intent: "leave" }));
    expect(left.status).toBe(302);
    const afterLeave = await (await member.page(`/events/${id}`)).text();
    expect(afterLeave).toContain("イベントへの参加を取り消しました");
    expect(afterLeave).toContain("残り1席");
    expect(await seats(id)).toEqual({ count: 0, rows: 0 });
  });

  it("getEvent says whether the viewer joined and whether it started", async () => {
    const { id, startsAt } = await createEvent({ capacity: 2 });
    const [userId] = await profiles(1);
    await joinEvent({ db: db(), eventId: id, userId: userId!, now: new Date() });
    expect(await getEvent({ db: db(), eventId: id, viewerId: userId, now: new Date() })).toMatchObject({ joined: true, started: false, seatsLeft: 1, participants: [{ uid: userId, link: `/u/${userId}` }] });
    expect(await getEvent({ db: db(), eventId: id, viewerId: null, now: startsAt })).toMatchObject({ joined: false, started: true });
  });
});
