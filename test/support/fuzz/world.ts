import { randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { createBrowserMember, createMember, signUp } from "../auth";
import { tableChecksums } from "../checksums";
import { startTestServer, type TestServer } from "../server";
import { creditPurchase, transfer } from "../../../app/models/coins.server";
import { createOperator } from "../desk";
import { FUZZ_COMMUNITY_ID, validListing, WEBHOOK_SECRET, type Context, type Row } from "./generators";

/**
 * The world the fuzz table runs against: a server (Discord on, pointed at a port nobody listens on, so the OAuth rows
 * store flows without ever reaching it), with Stripe on a second one when an area needs it, a member with coins, a
 * room, listings, a booking and a completed one, a post, a community and an event, and sessions that the sign-out and
 * refresh rows may end so the others keep theirs.
 */
export async function startFuzzWorld({ stripe = false }: { stripe?: boolean } = {}): Promise<Context & { close(): Promise<void> }> {
  // Discord is on, pointed at a port nobody listens on: the OAuth rows store flows without ever reaching it.
  const app = await startTestServer({
    seed: false,
    env: { DISCORD_CLIENT_ID: "100000000000000001", DISCORD_CLIENT_SECRET: "fuzz-secret", DISCORD_URL: "http://127.0.0.1:9", DISCORD_TIMEOUT_MS: "200" },
  });
  const [browser, other, blockTarget, logoutBrowser, sessionsBrowser] = await Promise.all([
    createBrowserMember(app, "ファズ"),
    createMember(app, "相手"),
    createMember(app, "ブロック対象"),
    createBrowserMember(app, "ログアウト役"),
    createBrowserMember(app, "端末一覧役"),
  ]);
  const [logoutSession, refreshSession] = await Promise.all([signUp(app), signUp(app)]);
  const room = await browser.api("/api/chat/rooms", { json: { participantIds: [other.id], type: "DIRECT", name: null } });
  const inquiryPage = await (await app.request("/inquiry")).text();
  const honeypotValidFrom = /name="from__confirm"[^>]*value="([^"]+)"/.exec(inquiryPage)?.[1];
  if (!honeypotValidFrom) throw new Error("the inquiry form has no honeypot timestamp");
  // Something to book: a game, a listing of the other member's, the member's own listing and a booking, with coins.
  const db = app.database.db;
  await db.insertInto("games").values({ slug: "apex-legends", name: "Apex Legends", name_kana: "エーペックスレジェンズ" }).onConflict((oc) => oc.doNothing()).execute();
  await db.transaction().execute((trx) => creditPurchase(trx, { userId: browser.id, coins: 100_000, reference: "fuzz" }));
  const { id: apexId } = await db.selectFrom("games").select("id").where("slug", "=", "apex-legends").executeTakeFirstOrThrow();
  await db.insertInto("communities").values({ id: FUZZ_COMMUNITY_ID, slug: "fuzz-community", name: "ファズ部", game_id: apexId, members_count: 1 }).execute();
  await db.insertInto("community_members").values({ community_id: FUZZ_COMMUNITY_ID, user_id: browser.id }).execute();
  const listingOf = async (member: { api: typeof browser.api }) =>
    ((await (await member.api("/api/listings", { json: validListing })).json()) as { data: { listing: { id: string } } }).data.listing.id;
  const [listingId, ownListingId] = await Promise.all([listingOf(other), listingOf(browser)]);
  const booked = await browser.api(`/api/listings/${listingId}/purchase`, {
    json: { units: 1, desiredStartTime: Date.now() + 86_400_000 },
    headers: { "Idempotency-Key": randomUUID() },
  });
  const bookingId = ((await booked.json()) as { data: { ticket: { id: string } } }).data.ticket.id;
  const played = await browser.api(`/api/listings/${listingId}/purchase`, { json: { units: 1, desiredStartTime: Date.now() + 60_000 }, headers: { "Idempotency-Key": randomUUID() } });
  if (!booked.ok || !played.ok) throw new Error(`the fuzz world's bookings: ${booked.status} ${played.status} ${await played.clone().text()}`);
  const completedBookingId = ((await played.json()) as { data: { ticket: { id: string } } }).data.ticket.id;
  for (const [member, action] of [[other, "accept"], [other, "start"], [browser, "complete"]] as const) {
    const response = await member.api(`/api/tickets/${completedBookingId}/${action}`, { json: {} });
    if (!response.ok) throw new Error(`${action}: ${response.status}`);
  }
  const { email } = await app.database.db.selectFrom("auth_users").select("email").where("id", "=", browser.id).executeTakeFirstOrThrow();
  // The other member offers a plan, so subscribing (with the member's coins) can succeed.
  await other.api("/api/store/subscription-plan", { method: "PUT", json: { monthlyPrice: 100 } });
  const posted = await other.api("/api/posts/create", { json: { content: "ファズの相手の投稿", imageUrl: null, isPublic: true } });
  const postId = ((await posted.json()) as { post: { id: string } }).post.id;
  // Events: one with two seats that the member may join and leave.
  const startsAt = new Date(Date.now() + 7 * 24 * 3600_000);
  const event = await db
    .insertInto("events")
    .values({ game_id: apexId, title: "ファズの会", starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 3600_000), capacity: 2 })
    .returning("id")
    .executeTakeFirstOrThrow();
  // The desk's rows: an admin at aal2, and a member of their own with a reported post.
  const [deskAdmin, deskPerson] = await Promise.all([createOperator(app, ["admin"], { displayName: "ファズ管理者" }), createMember(app, "処分対象")]);
  const deskPosted = await deskPerson.api("/api/posts/create", { json: { content: "通報された投稿", imageUrl: null, isPublic: true } });
  const deskPostId = ((await deskPosted.json()) as { post: { id: string } }).post.id;
  await db.insertInto("reports").values({ reporter_id: other.id, target_type: "post", target_id: deskPostId, target_user_id: deskPerson.id, reason: "spam", note: "ファズの通報" }).execute();
  const stripeApp = stripe
    ? await startTestServer({ seed: false, env: { STRIPE_SECRET_KEY: "sk_test_fuzz", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: "http://127.0.0.1:9" } })
    : undefined;
  const ctx: Context = {
    app,
    stripeApp: stripeApp ?? app,
    bearer: browser.token,
    cookie: browser.jar.header(),
    memberId: browser.id,
    otherId: other.id,
    roomId: ((await room.json()) as { data: { chatRoom: { id: string } } }).data.chatRoom.id,
    blockTargetId: blockTarget.id,
    listingId,
    ownListingId,
    bookingId,
    completedBookingId,
    postId,
    logoutCookie: logoutBrowser.jar.header(),
    logoutBearer: logoutSession.session.access_token,
    refreshToken: refreshSession.session.refresh_token,
    sessionsCookie: sessionsBrowser.jar.header(),
    otherSessionId: (JSON.parse(Buffer.from(other.token.split(".")[1]!, "base64url").toString()) as { session_id: string }).session_id,
    email,
    eventId: event.id,
    honeypotValidFrom,
    deskCookie: deskAdmin.jar.header(),
    deskPersonId: deskPerson.id,
    deskPostId,
    ...(await deskMoneyWorld(app, deskAdmin, other)),
  };

  return {
    ...ctx,
    close: async () => {
      await Promise.all([app.close(), stripeApp?.close()]);
    },
  };
}

/** The desk's payouts and inquiries rows' part of the world (ADR 072): a payout `seller` requested (coins tipped by the admin), an inquiry. */
async function deskMoneyWorld(app: TestServer, admin: { id: string }, seller: Awaited<ReturnType<typeof createMember>>) {
  const db = app.database.db;
  await db.transaction().execute(async (trx) => {
    await creditPurchase(trx, { userId: admin.id, coins: 5_000, reference: "fuzz-desk" });
    await transfer(trx, { fromId: admin.id, toId: seller.id, amount: 5_000, purpose: "tip", reference: "fuzz-desk-tip", feePercent: 0 });
  });
  const requested = await seller.api("/api/payouts", {
    json: { coins: 1_000, bankName: "ファズ銀行", branchName: "本店", accountType: "ordinary", accountNumber: "1234567", accountHolder: "ファズ タロウ" },
    headers: { "Idempotency-Key": randomUUID() },
  });
  const deskPayoutId = ((await requested.json()) as { data: { payout: { id: string } } }).data.payout.id;
  const inquiry = await db.insertInto("inquiries").values({ name: "ファズ", email: "fuzz-inquiry@example.jp", category: "other", body: "ファズの問い合わせ" }).returning("id").executeTakeFirstOrThrow();
  return { deskPayoutId, deskInquiryId: inquiry.id };
}

/** The world, made before the file's tests and closed after them: read `world()` inside a test. */
export function useFuzzWorld(options: { stripe?: boolean } = {}) {
  let world: Awaited<ReturnType<typeof startFuzzWorld>> | undefined;
  // Two servers, members, listings and bookings: on a busy machine this takes longer than a hook's default minute.
  beforeAll(async () => {
    world = await startFuzzWorld(options);
  }, 300_000);
  afterAll(async () => {
    await world?.close();
  });
  return () => {
    if (!world) throw new Error("the fuzz world is not made yet");
    return world;
  };
}

/**
 * One checksum per table in one round trip: what a refused request must leave as it was (../checksums.ts). A mail's
 * row changes by itself once sent (server/mail/service.ts): what a request wrote is the mail, not its delivery; chat
 * digests are written by the sweeper on its own schedule (ADR 029), never by a request.
 */
export const tableChecksumsOf = (app: TestServer) =>
  tableChecksums(app.database.db, {
    mail_outbox: "(case when t.kind = 'chat_digest' then null else (t.id, t.kind, t.to_address, t.user_id, t.topic, t.created_at)::text end)",
  });

/** The checksums without the tables a row's refusal writes on purpose. */
export const without = (checksums: Record<string, string>, tables: string[] = []) => Object.fromEntries(Object.entries(checksums).filter(([name]) => !tables.includes(name)));

/** The signed-in caller's headers for a row: its bearer token or its cookies (the sign-out rows end sessions of their own). */
export function credentials(ctx: Context, row: Row, signedIn: boolean): Record<string, string> {
  if (!signedIn) return {};
  if (row.as === "bearer") return { Authorization: `Bearer ${row.route === "auth:POST /logout" ? ctx.logoutBearer : ctx.bearer}` };
  if (row.route === "routes/settings.security.sessions") return { Cookie: ctx.sessionsCookie };
  if (/^routes\/(_default\.admin|admin\.)/.test(row.route)) return { Cookie: ctx.deskCookie };
  return { Cookie: row.route === "routes/logout" ? ctx.logoutCookie : ctx.cookie };
}
