import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUSH_BODY_CHARS, PUSH_FOCUS_WINDOW_MS, PUSH_RETRY, PUSH_TTL_SECONDS } from "~/lib/constants";
import * as pushText from "~/lib/messages/push";
import { storeMessages } from "~/models/chat-sender.server";
import { creditPurchase } from "~/models/coins.server";
import { pushRetryDelayMs, roomTopic } from "~/models/push-outbox.server";
import { PushError, savePushSubscription } from "~/models/push.server";
import { createPushClient } from "~/infra/push";
import { createBrowserMember, createMember, PASSWORD, type Member } from "../support/auth";
import { testEngine } from "../support/database";
import { startPushServiceStandIn, type PushServiceStandIn } from "../support/push-service";
import { startTestServer, type TestServer } from "../support/server";
import { connectSocket, settle } from "../support/sockets";

/**
 * Web Push (ADR 052) through the built server and a stand-in push service on loopback that checks
 * the VAPID JWT and decrypts every payload with the keys this test made (test/support/push-service.ts): what each
 * producer pushes and with which headers, a chat burst under one topic, nothing while the room is open and focused,
 * the kinds turned off, a subscriber-only post, 404/410 forgetting the device, 429/5xx retried with backoff and then
 * given up, never sent twice, and the devices' API and settings page. The server's own sweeper is stopped; its clock
 * is moved by the tests.
 */

const MIN = 60_000;
const GAME = "push-test-game";
const ANDROID_CHROME = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

let app: TestServer;
let push: PushServiceStandIn;
let offsetMs = 0;
const db = () => app.database.db;
const later = (ms: number) => (offsetMs += ms);

beforeAll(async () => {
  app = await startTestServer({ seed: false, env: { TEST_OUTBOUND_LOOPBACK: "true" }, clock: () => new Date(Date.now() + offsetMs) });
  await app.server.sweeper.stop();
  push = await startPushServiceStandIn({ vapidPublicKey: app.config.VAPID_PUBLIC_KEY });
  await db().insertInto("games").values({ slug: GAME, name: "プッシュテスト", name_kana: "ぷっしゅてすと" }).execute();
});
afterAll(async () => {
  await app?.close();
  await push?.close();
});

/** The member's new device: a subscription of the stand-in, handed to the API as a browser would. */
async function deviceOf(member: Member, userAgent = ANDROID_CHROME) {
  const subscription = push.subscribe();
  const response = await member.api("/api/push/subscriptions", { json: subscription.json, headers: { "User-Agent": userAgent } });
  expect(response.status, await response.clone().text()).toBe(201);
  const { device } = ((await response.json()) as { data: { device: { id: number; label: string } } }).data;
  return { ...subscription, deviceId: device.id, label: device.label };
}

const waiting = (device: { deviceId: number }) => db().selectFrom("push_outbox").selectAll().where("subscription_id", "=", device.deviceId).execute();
const deviceRow = (device: { deviceId: number }) => db().selectFrom("push_subscriptions").selectAll().where("id", "=", device.deviceId).executeTakeFirst();
/** Every delivery pass due now has run and nothing more is waiting to go now (what waits for later may stay). */
async function delivered() {
  for (let i = 0; i < 50; i++) {
    await app.server.push.deliver();
    const due = await db()
      .selectFrom("push_outbox")
      .select("id")
      .where("failed_at", "is", null)
      .where("next_attempt_at", "<=", new Date(Date.now() + offsetMs))
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", new Date(Date.now() + offsetMs))]))
      .execute();
    if (due.length === 0) return;
    await settle(20);
  }
  throw new Error("pushes still due after 50 passes");
}
const nothingRejected = () => expect(push.rejected).toEqual([]);

async function directRoom(a: Member, b: Member) {
  const response = await a.api("/api/chat/rooms", { json: { participantIds: [b.id], type: "DIRECT", name: null } });
  expect(response.status).toBeLessThan(300);
  return ((await response.json()) as { data: { chatRoom: { id: string } } }).data.chatRoom.id;
}
async function send(member: Member, roomId: string, content: string) {
  const response = await member.api("/api/chat/messages", { json: { roomId, content, messageType: "TEXT", metadata: null, clientId: randomUUID() } });
  expect(response.status, await response.clone().text()).toBe(201);
}

async function listingOf(seller: Member, title: string) {
  const response = await seller.api("/api/listings", { json: { title, gameSlug: GAME, description: "", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 4 } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { listing: { id: string } } }).data.listing.id;
}
async function book(buyer: Member, listingId: string) {
  await db()
    .transaction()
    .execute((trx) => creditPurchase(trx, { userId: buyer.id, coins: 1_000, reference: `push-test:${randomUUID()}` }));
  const response = await buyer.api(`/api/listings/${listingId}/purchase`, {
    json: { units: 1, desiredStartTime: Date.now() + 3 * 60 * MIN },
    headers: { "Idempotency-Key": randomUUID() },
  });
  expect(response.ok, await response.clone().text()).toBe(true);
  return ((await response.json()) as { data: { ticket: { id: string } } }).data.ticket.id;
}

describe(`Web Push (${testEngine})`, () => {
  it("pushes a booking to the seller's device: a VAPID JWT the push service verifies, an aes128gcm payload it decrypts, urgency high", async () => {
    const [seller, buyer] = await Promise.all([createMember(app, "予約プッシュ売り手"), createMember(app, "予約プッシュ買い手")]);
    const device = await deviceOf(seller);
    expect(device.label).toBe("Chrome（Android）");
    const bookingId = await book(buyer, await listingOf(seller, "プッシュのチケット"));
    const [received] = await push.waitFor(device, 1);
    nothingRejected();
    expect(received!.claims.aud).toBe(push.url);
    expect(received!.claims.sub).toMatch(/^mailto:/);
    expect(received!.urgency).toBe("high");
    expect(received!.ttl).toBe(PUSH_TTL_SECONDS.booking);
    expect(received!.topic).toBeNull();
    // Exactly the fields the service worker reads, and the notification's words.
    expect(Object.keys(received!.payload).sort()).toEqual(["body", "tag", "title", "url"]);
    expect(received!.payload.title).toBe("「プッシュのチケット」が購入されました");
    expect(received!.payload.body).toContain("予約プッシュ買い手");
    expect(received!.payload.url).toBe("/settings/ticket-management");
    expect(received!.payload.tag).toMatch(/^notification:/);
    // Taken by the push service: the row is gone and the device's last success is noted.
    await delivered();
    expect(await waiting(device)).toEqual([]);
    expect((await deviceRow(device))!.last_success_at).not.toBeNull();
    // The buyer is pushed the acceptance (normal urgency: no deadline), on the buyer's own device only.
    const buyerDevice = await deviceOf(buyer);
    expect((await buyer.api(`/api/tickets/${bookingId}/accept`, { json: {} })).status).toBe(403);
    expect((await seller.api(`/api/tickets/${bookingId}/accept`, { json: {} })).status).toBe(200);
    const [accepted] = await push.waitFor(buyerDevice, 1);
    expect(accepted!.urgency).toBe("normal");
    expect(accepted!.payload.title).toContain("承認");
    await delivered();
    expect(push.received(device)).toHaveLength(1);
  });

  it("a chat message goes to the recipient's devices (not the sender's), cut to 80 characters, under its room's topic", async () => {
    const [alice, bob] = await Promise.all([createMember(app, "チャット送り手"), createMember(app, "チャット受け手")]);
    const [phone, laptop, alicePhone] = [await deviceOf(bob), await deviceOf(bob, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/128.0"), await deviceOf(alice)];
    expect(laptop.label).toBe("Firefox（Windows）");
    const roomId = await directRoom(alice, bob);
    const long = "あ".repeat(60) + "い".repeat(60);
    await send(alice, roomId, long);
    const [onPhone] = await push.waitFor(phone, 1);
    const [onLaptop] = await push.waitFor(laptop, 1);
    nothingRejected();
    for (const received of [onPhone!, onLaptop!]) {
      expect(received.topic).toBe(roomTopic(roomId));
      expect(received.urgency).toBe("high");
      expect(received.ttl).toBe(PUSH_TTL_SECONDS.chat);
      expect(received.payload).toEqual({
        title: pushText.chatTitle("チャット送り手"),
        body: "あ".repeat(60) + "い".repeat(PUSH_BODY_CHARS - 61) + "…",
        url: `/chat/${roomId}`,
        tag: `chat:${roomId}`,
      });
      expect(Array.from(received.payload.body)).toHaveLength(PUSH_BODY_CHARS);
    }
    await delivered();
    expect(push.received(alicePhone)).toEqual([]);
    // A retry of the same message (the same client id) is stored once and pushed once.
    const clientId = randomUUID();
    for (let i = 0; i < 2; i++) {
      const response = await alice.api("/api/chat/messages", { json: { roomId, content: "一度だけ", messageType: "TEXT", metadata: null, clientId } });
      expect(response.status).toBe(201);
    }
    await push.waitFor(phone, 2);
    await delivered();
    expect(push.received(phone).map((received) => received.payload.body)).toEqual([onPhone!.payload.body, "一度だけ"]);
  });

  it("a burst of ten messages in a room comes under one topic, the newest last; waiting pushes of a topic collapse into one", async () => {
    const [alice, bob] = await Promise.all([createMember(app, "連投する人"), createMember(app, "連投される人")]);
    const phone = await deviceOf(bob);
    const roomId = await directRoom(alice, bob);
    const otherRoom = await directRoom(await createMember(app, "別のルームの人"), bob);
    for (let i = 1; i <= 10; i++) await send(alice, roomId, `連投${i}`);
    await delivered();
    const burst = push.received(phone);
    expect(burst.length).toBeGreaterThanOrEqual(1);
    expect(burst.length).toBeLessThanOrEqual(10);
    expect(new Set(burst.map((received) => received.topic))).toEqual(new Set([roomTopic(roomId)]));
    expect(new Set(burst.map((received) => received.payload.tag))).toEqual(new Set([`chat:${roomId}`]));
    expect(burst.at(-1)!.payload.body).toBe("連投10");
    expect(roomTopic(otherRoom)).not.toBe(roomTopic(roomId));

    // Five people writing at once into a group: one statement, one commit, five pushes waiting for the device when
    // the delivery looks: it sends the newest only.
    const senders = await Promise.all([1, 2, 3, 4, 5].map((n) => createMember(app, `グループ${n}`)));
    const group = await senders[0]!.api("/api/chat/rooms", { json: { participantIds: [...senders.slice(1).map((s) => s.id), bob.id], type: "GROUP", name: "攻略班" } });
    expect(group.status).toBeLessThan(300);
    const groupId = ((await group.json()) as { data: { chatRoom: { id: string } } }).data.chatRoom.id;
    const before = push.received(phone).length;
    await delivered();
    const outcomes = await storeMessages(
      db(),
      senders.map((sender, i) => ({ senderId: sender.id, sessionId: null, roomId: groupId, content: `同時${i + 1}`, clientId: randomUUID() })),
    );
    expect(outcomes.every((outcome) => "message" in outcome)).toBe(true);
    await delivered();
    const groupPushes = push.received(phone).slice(before);
    expect(groupPushes).toHaveLength(1);
    expect(groupPushes[0]!.topic).toBe(roomTopic(groupId));
    expect(groupPushes[0]!.payload.title).toBe(pushText.groupChatTitle("攻略班", "グループ5"));
    expect(groupPushes[0]!.payload.body).toBe("同時5");
    expect(await waiting(phone)).toEqual([]);
    nothingRejected();
  });

  it("sends no chat push while the room is open in a focused tab; pushes again once it is not, or after two minutes unrepeated", async () => {
    const [alice, bob] = await Promise.all([createMember(app, "見ている人の相手"), createMember(app, "ルームを見ている人")]);
    const phone = await deviceOf(bob);
    const roomId = await directRoom(alice, bob);
    const stranger = await createMember(app, "よその人");
    const elsewhere = await directRoom(stranger, bob);
    const tab = await connectSocket(app.url, bob.token);
    const focusedRoom = async () =>
      (await db().selectFrom("user_presence").select(["focused_room_id", "focused_at"]).where("user_id", "=", bob.id).executeTakeFirst())?.focused_room_id ?? null;
    const until = async (value: string | null) => {
      for (let i = 0; i < 100 && (await focusedRoom()) !== value; i++) await settle(20);
      expect(await focusedRoom()).toBe(value);
    };
    try {
      tab.emit("chat:focus", { roomId });
      await until(roomId);
      await send(alice, roomId, "見ているあいだ");
      // Not even written: the statement that stored the message saw the focus.
      expect(await waiting(phone)).toEqual([]);
      // Another room's message still comes.
      await send(stranger, elsewhere, "よそから");
      await delivered();
      expect(push.received(phone).map((received) => received.payload.url)).toEqual([`/chat/${elsewhere}`]);

      // The tab loses focus: the room's messages are pushed again.
      tab.emit("chat:focus", { roomId: null });
      await until(null);
      await send(alice, roomId, "離れたあと");
      await push.waitFor(phone, 2);
      expect(push.received(phone)[1]!.payload.body).toBe("離れたあと");

      // Focus not repeated within two minutes (a tab that vanished without a word) no longer counts.
      tab.emit("chat:focus", { roomId });
      await until(roomId);
      await db()
        .updateTable("user_presence")
        .set({ focused_at: new Date(Date.now() - PUSH_FOCUS_WINDOW_MS - 1_000) })
        .where("user_id", "=", bob.id)
        .execute();
      await send(alice, roomId, "放置されたタブ");
      await push.waitFor(phone, 3);

      // The socket closing clears what it said.
      tab.emit("chat:focus", { roomId });
      await until(roomId);
    } finally {
      tab.close();
    }
    await until(null);
    nothingRejected();
  });

  it("a kind turned off in /settings/notifications is not pushed, the others are; the form works without JavaScript", async () => {
    const bob = await createBrowserMember(app, "チャットを切った人");
    const alice = await createMember(app, "切られた人");
    const phone = await deviceOf(bob);
    const roomId = await directRoom(alice, bob);
    const saved = await bob.page("/settings/notifications", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([
        ["intent", "push-kinds"],
        ["pushKinds", "booking"],
        ["pushKinds", "review"],
        ["pushKinds", "subscription"],
      ]),
    });
    expect(saved.status).toBe(302);
    expect((await db().selectFrom("push_opt_outs").select("kind").where("user_id", "=", bob.id).execute()).map((row) => row.kind)).toEqual(["chat"]);
    // The mail choices are another form's: untouched.
    expect(await db().selectFrom("mail_opt_outs").select("kind").where("user_id", "=", bob.id).execute()).toEqual([]);
    const page = (await (await bob.page("/settings/notifications")).text()).replace(/<!-- -->/g, "");
    expect(page).toContain(pushText.enable);
    expect(page).toContain("Chrome（Android）");
    const boxes = [...page.matchAll(/<input[^>]*name="pushKinds"[^>]*>/g)].map(([tag]) => tag);
    expect(boxes).toHaveLength(4);
    expect(boxes.filter((tag) => /\bchecked\b/.test(tag)).map((tag) => /value="(\w+)"/.exec(tag)![1])).toEqual(["booking", "review", "subscription"]);

    await send(alice, roomId, "届かないはず");
    expect(await waiting(phone)).toEqual([]);
    // A booking still is.
    await book(alice, await listingOf(bob, "切った人のチケット"));
    const [received] = await push.waitFor(phone, 1);
    expect(received!.payload.url).toBe("/settings/ticket-management");
    await delivered();
    expect(push.received(phone)).toHaveLength(1);

    // A forged kind is refused and changes nothing.
    const forged = await bob.page("/settings/notifications", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([["intent", "push-kinds"], ["pushKinds", "everything"]]),
    });
    expect(forged.status).toBe(400);
    expect((await db().selectFrom("push_opt_outs").select("kind").where("user_id", "=", bob.id).execute()).map((row) => row.kind)).toEqual(["chat"]);
  });

  it("a subscriber-only post's push says there is one and nothing of it; a public post's carries its text", async () => {
    const [creator, fan] = await Promise.all([createMember(app, "限定投稿する人"), createMember(app, "加入しているファン")]);
    const creatorPhone = await deviceOf(creator);
    const fanPhone = await deviceOf(fan);
    expect((await creator.api("/api/store/subscription-plan", { method: "PUT", json: { monthlyPrice: 500, description: "攻略メモ" } })).status).toBe(200);
    await db()
      .transaction()
      .execute((trx) => creditPurchase(trx, { userId: fan.id, coins: 1_000, reference: `push-test:${randomUUID()}` }));
    expect((await fan.api("/api/subscriptions", { json: { subscribeeId: creator.id }, headers: { "Idempotency-Key": randomUUID() } })).status).toBe(201);
    // The creator hears of the new subscriber.
    const [subscribed] = await push.waitFor(creatorPhone, 1);
    expect(subscribed!.payload.title).toContain("加入しているファン");

    const secret = "限定：ボス戦は左の柱の裏から攻撃すると安全";
    expect((await creator.api("/api/posts/create", { json: { content: secret, isPublic: false } })).status).toBe(201);
    const [locked] = await push.waitFor(fanPhone, 1);
    expect(locked!.payload.title).toBe(pushText.postTitle("限定投稿する人"));
    expect(locked!.payload.body).toBe(pushText.subscribersOnlyPost);
    expect(JSON.stringify(locked!.payload)).not.toContain("ボス戦");
    expect(locked!.payload.url).toBe(`/u/${creator.id}/posts`);

    expect((await creator.api("/api/posts/create", { json: { content: "みんなに：今夜配信します", isPublic: true } })).status).toBe(201);
    const [, open] = await push.waitFor(fanPhone, 2);
    expect(open!.payload.body).toBe("みんなに：今夜配信します");
    await delivered();
    // Nobody else's devices hear of the creator's posts.
    expect(push.received(creatorPhone)).toHaveLength(1);
    nothingRejected();
  });

  it("404 and 410 from the push service forget the device and what waited for it", async () => {
    const [alice, bob] = await Promise.all([createMember(app, "消えた端末の相手"), createMember(app, "端末が消えた人")]);
    const [gone, unknown, kept] = [await deviceOf(bob), await deviceOf(bob), await deviceOf(bob)];
    push.answer(gone, [410]);
    push.answer(unknown, [404]);
    const roomId = await directRoom(alice, bob);
    await send(alice, roomId, "最後のメッセージ");
    await Promise.all([push.waitFor(gone, 1), push.waitFor(unknown, 1), push.waitFor(kept, 1)]);
    await delivered();
    expect(await deviceRow(gone)).toBeUndefined();
    expect(await deviceRow(unknown)).toBeUndefined();
    expect(await deviceRow(kept)).toBeDefined();
    await send(alice, roomId, "次のメッセージ");
    await push.waitFor(kept, 2);
    await delivered();
    expect(push.received(gone)).toHaveLength(1);
    expect(push.received(unknown)).toHaveLength(1);
  });

  it("500 and 429 are tried again with backoff (and Retry-After), never twice at once, then given up after the last try", async () => {
    const [alice, bob] = await Promise.all([createMember(app, "再送の相手"), createMember(app, "再送される人")]);
    const failing = await deviceOf(bob);
    const busy = await deviceOf(bob);
    push.answer(failing, Array(PUSH_RETRY.maxAttempts).fill(500));
    push.answer(busy, [429, 503], 120);
    const roomId = await directRoom(alice, bob);
    await send(alice, roomId, "再送のテスト");
    await Promise.all([push.waitFor(failing, 1), push.waitFor(busy, 1)]);
    await delivered();

    // First retry: 30 s for the 500; the 429 asked for 120 s.
    const [row] = await waiting(failing);
    expect(row).toMatchObject({ attempts: 1, failed_at: null });
    expect(row!.last_error).toMatch(/^500/);
    later(PUSH_RETRY.baseMs - 1_000);
    await delivered();
    expect(push.received(failing)).toHaveLength(1);
    later(1_000);
    await delivered();
    expect(push.received(failing)).toHaveLength(2);
    expect(push.received(busy)).toHaveLength(1);
    later(120_000 - PUSH_RETRY.baseMs);
    await delivered();
    // The 503 that came next waits the longer of its backoff (60 s) and Retry-After (120 s), then the push goes
    // through and the device's last success is noted.
    expect(push.received(busy).map((received) => received.status)).toEqual([429, 503]);
    later(Math.max(120_000, pushRetryDelayMs(2)) - 1_000);
    await delivered();
    expect(push.received(busy)).toHaveLength(2);
    later(1_000);
    await delivered();
    expect(push.received(busy).map((received) => received.status)).toEqual([429, 503, 201]);
    expect(await waiting(busy)).toEqual([]);
    expect((await deviceRow(busy))!.last_success_at).not.toBeNull();

    // The 500s until the last try, each after its own doubling wait; then given up, and never tried again.
    for (let attempt = push.received(failing).length; attempt < PUSH_RETRY.maxAttempts; attempt++) {
      later(pushRetryDelayMs(attempt));
      await delivered();
    }
    expect(push.received(failing)).toHaveLength(PUSH_RETRY.maxAttempts);
    const [given] = await waiting(failing);
    expect(given!.failed_at).not.toBeNull();
    expect(given!.attempts).toBe(PUSH_RETRY.maxAttempts);
    later(24 * 60 * MIN);
    await delivered();
    expect(push.received(failing)).toHaveLength(PUSH_RETRY.maxAttempts);
    // The device stays: a push service that failed is not a device that left.
    expect(await deviceRow(failing)).toBeDefined();
    nothingRejected();
  });

  it("the devices' API: each user sees and removes only their own; someone else's subscription is 404", async () => {
    const [owner, stranger] = await Promise.all([createBrowserMember(app, "端末の持ち主"), createMember(app, "他人")]);
    const device = await deviceOf(owner);
    const list = await owner.api("/api/push/subscriptions");
    const listed = ((await list.json()) as { data: { devices: Array<{ id: number; label: string }>; publicKey: string } }).data;
    expect(listed.devices.map((d) => d.id)).toEqual([device.deviceId]);
    expect(listed.publicKey).toBe(app.config.VAPID_PUBLIC_KEY);
    expect(JSON.stringify(listed)).not.toContain(device.endpoint);
    expect(((await (await stranger.api("/api/push/subscriptions")).json()) as { data: { devices: unknown[] } }).data.devices).toEqual([]);

    const byId = await stranger.api(`/api/push/subscriptions/${device.deviceId}`, { method: "DELETE" });
    expect(byId.status).toBe(404);
    expect(((await byId.json()) as { error: { message: string } }).error.message).toBe(pushText.subscriptionNotFound);
    const byEndpoint = await stranger.api("/api/push/subscriptions", { method: "DELETE", json: { endpoint: device.endpoint } });
    expect(byEndpoint.status).toBe(404);
    expect((await stranger.api("/api/push/subscriptions/not-a-number", { method: "DELETE" })).status).toBe(404);
    expect((await app.request(`/api/push/subscriptions/${device.deviceId}`, { method: "DELETE" })).status).toBe(401);
    // Someone else's through the page's plain form: 404 too.
    const strangerBrowser = await createBrowserMember(app, "他人のブラウザ");
    const forged = await strangerBrowser.page("/settings/notifications", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "remove-device", deviceId: String(device.deviceId) }),
    });
    expect(forged.status).toBe(404);
    expect(await deviceRow(device)).toBeDefined();

    // Bad subscriptions are 400 in Japanese; an http:// endpoint only where the configuration allows it.
    const bad = await owner.api("/api/push/subscriptions", { json: { endpoint: "https://push.example/x", keys: { p256dh: "short", auth: "x" } } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors.keys).toContain(pushText.invalidSubscription);
    await expect(
      savePushSubscription({ db: db(), userId: owner.id, subscription: push.subscribe().json, userAgent: null, outbound: { allowLoopback: false } }),
    ).rejects.toBeInstanceOf(PushError);

    // The owner's 「解除」 without JavaScript.
    const removed = await owner.page("/settings/notifications", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "remove-device", deviceId: String(device.deviceId) }),
    });
    expect(removed.status).toBe(302);
    expect(await deviceRow(device)).toBeUndefined();
    // The same device again, then removed by the device itself (its endpoint).
    const again = await deviceOf(owner);
    expect((await owner.api("/api/push/subscriptions", { method: "DELETE", json: { endpoint: again.endpoint } })).status).toBe(200);
    expect(await deviceRow(again)).toBeUndefined();
  });

  it("signing out on one device forgets that device's subscription (the button names it), and no other", async () => {
    const member = await createBrowserMember(app, "共用PC");
    const [sharedPc, phone] = [await deviceOf(member), await deviceOf(member)];
    const signOut = await member.page("/logout", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ pushEndpoint: sharedPc.endpoint }),
    });
    expect(signOut.status).toBe(302);
    expect(await deviceRow(sharedPc)).toBeUndefined();
    expect(await deviceRow(phone)).toBeDefined();
  });

  it("a device signed in as someone else moves to them; sign-out everywhere and leaving forget every device", async () => {
    const [first, second] = await Promise.all([createBrowserMember(app, "前の持ち主"), createBrowserMember(app, "次の持ち主")]);
    const shared = await deviceOf(first);
    const moved = await second.api("/api/push/subscriptions", { json: shared.json });
    expect(moved.status).toBe(201);
    expect((await deviceRow(shared))!.user_id).toBe(second.id);

    const phone = await deviceOf(second);
    await deviceOf(second);
    const signOut = await second.page("/logout", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ scope: "global" }) });
    expect(signOut.status).toBe(302);
    expect(await db().selectFrom("push_subscriptions").select("id").where("user_id", "=", second.id).execute()).toEqual([]);
    expect(await deviceRow(phone)).toBeUndefined();

    const leaving = await deviceOf(first);
    await db().insertInto("push_opt_outs").values({ user_id: first.id, kind: "chat" }).execute();
    const left = await first.page("/settings/account", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ password: PASSWORD, confirm: "on" }),
    });
    expect(left.status).toBe(302);
    expect(await deviceRow(leaving)).toBeUndefined();
    expect(await db().selectFrom("push_opt_outs").select("kind").where("user_id", "=", first.id).execute()).toEqual([]);
  });
});

describe(`Push endpoints a user chose: only public https hosts, checked when registered and when sent (ADR 054, ${testEngine})`, () => {
  const REFUSED = [
    "https://127.0.0.1:9/push/x",
    "https://[::1]/push/x",
    "https://localhost/push/x",
    "https://foo.localhost/push/x",
    "https://10.0.0.1/push/x",
    "https://172.16.5.4/push/x",
    "https://192.168.1.1/push/x",
    "https://169.254.169.254/latest/meta-data/",
    "https://[fe80::1]/push/x",
    "https://[fd00::1]/push/x",
    "https://100.64.0.1/push/x",
    "https://0.0.0.0/push/x",
    "https://2130706433/push/x",
    "https://0x7f.1/push/x",
    "https://127.1/push/x",
    "https://[::ffff:7f00:1]/push/x",
    "https://[64:ff9b::a00:1]/push/x",
    "https://[2002:c0a8:101::1]/push/x",
    "http://8.8.8.8/push/x",
    "\u0001https://8.8.8.8/push/x",
  ];

  it("registering an endpoint that is not a public https host is a 400 in Japanese, and nothing is stored", async () => {
    // This file's server lets its stand-in on loopback in; this one is configured as production is.
    const strict = await startTestServer({ seed: false });
    try {
      const member = await createMember(strict, "外向きの確認");
      const keys = push.subscribe().json.keys;
      for (const endpoint of REFUSED) {
        const response = await member.api("/api/push/subscriptions", { json: { endpoint, expirationTime: null, keys } });
        expect(response.status, endpoint).toBe(400);
        // The model's refusal, or the schema's field error for what is not even an http(s) URL.
        const { error } = (await response.json()) as { error: { message: string; fieldErrors?: Record<string, string[]> } };
        expect([error.message, ...(error.fieldErrors?.endpoint ?? [])], endpoint).toContain(pushText.invalidSubscription);
      }
      const stored = await strict.database.db.selectFrom("push_subscriptions").select("endpoint").execute();
      expect(stored).toEqual([]);
      // What once answered 500: the URL parser drops a leading NUL, the database cannot compare with one.
      const nul = await member.api("/api/push/subscriptions", { method: "DELETE", json: { endpoint: "\u0000http://127.0.0.1:9/push/fuzz" } });
      expect(nul.status).toBe(400);
      expect(((await nul.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors.endpoint).toEqual(["使用できない文字が含まれています"]);
    } finally {
      await strict.close();
    }
  });

  it("a stored endpoint whose host now resolves to a private address is sent nothing, and its push is given up", async () => {
    const [seller, buyer] = await Promise.all([createMember(app, "宛先の売り手"), createMember(app, "宛先の買い手")]);
    const device = await deviceOf(buyer);
    // The client as the server makes it, but with a resolver that now says the push service's name is on loopback.
    const target = new URL(device.endpoint);
    const rebound = `https://push-service.example:${target.port}${target.pathname}`;
    const lookups: string[] = [];
    const client = createPushClient({
      publicKey: app.config.VAPID_PUBLIC_KEY,
      privateKey: app.config.VAPID_PRIVATE_KEY,
      subject: app.config.VAPID_SUBJECT,
      timeoutMs: 2_000,
      outbound: {
        allowLoopback: false,
        resolve: async (hostname) => {
          lookups.push(hostname);
          return [{ address: "127.0.0.1", family: 4 }];
        },
      },
    });
    const row = (await deviceRow(device))!;
    const result = await client.send({ endpoint: rebound, p256dh: row.p256dh, auth: row.auth }, JSON.stringify({ title: "x", body: "y", url: "/", tag: "t" }), { ttl: 60, urgency: "normal" });
    expect(result).toMatchObject({ outcome: "refused", error: expect.stringContaining("127.0.0.1 (IPv4 loopback)") });
    expect(lookups).toEqual(["push-service.example"]);
    expect(push.received(device)).toEqual([]);

    // Through the outbox: an endpoint stored before it was checked (a private address) gets nothing, its push given up.
    await db().updateTable("push_subscriptions").set({ endpoint: "https://10.0.0.7/push/stored-before" }).where("id", "=", device.deviceId).execute();
    const roomId = await directRoom(seller, buyer);
    await send(seller, roomId, "届かないはず");
    await delivered();
    const [waited] = await waiting(device);
    expect(waited?.failed_at).not.toBeNull();
    expect(waited?.last_error).toContain("10.0.0.7 (IPv4 private)");
    expect(push.received(device)).toEqual([]);
    nothingRejected();
  });
});
