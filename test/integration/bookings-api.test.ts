import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "~/models/coins.server";
import { createMember, type Member } from "../support/auth";
import { collect, serverWithSockets, settle } from "../support/sockets";

/**
 * The listing and booking API through the real built server (docs/product.md#bookings, #api; docs/product.md#data, #api): the envelope, the
 * statuses, the Japanese messages, who may do what, and the chat notices and realtime events a booking sends.
 */

const server = serverWithSockets({ seed: false });
const GAME = "api-booking-game";
const MIN = 60_000;

beforeAll(async () => {
  await server.app.database.db.insertInto("games").values({ slug: GAME, name: "APIテストゲーム", name_kana: "えーぴーあいてすとげーむ" }).execute();
});

interface BookingBody {
  id: string;
  status: string;
  totalPrice: number;
  totalMinutes: number;
  desiredStartTime: string;
  isSeller: boolean;
  [key: string]: unknown;
}

const listingBody = (overrides: Record<string, unknown> = {}) => ({
  title: "一緒にランクマッチ",
  gameSlug: GAME,
  description: "楽しくやりましょう",
  pricePerUnit: 300,
  minutesPerUnit: 30,
  maxUnits: 4,
  ...overrides,
});
const createListing = async (seller: Member, overrides: Record<string, unknown> = {}) => {
  const response = await seller.api("/api/listings", { json: listingBody(overrides) });
  expect(response.status).toBe(201);
  return (await response.json()).data.listing as { id: string; title: string };
};
const buyCoins = async (member: Member, packageId: number) =>
  expect((await member.api("/api/coins/orders", { json: { packageId }, headers: { "Idempotency-Key": randomUUID() } })).status).toBe(201);
const balanceOf = async (member: Member) => ((await (await member.api("/api/coins/balance")).json()) as { totalBalance: number }).totalBalance;
/** A desired start `minutes` from now, in milliseconds. */
const startIn = (minutes: number) => Date.now() + minutes * MIN;
const purchase = (member: Member, listingId: string, body: Record<string, unknown>, key: string | null = randomUUID()) =>
  member.api(`/api/listings/${listingId}/purchase`, { json: body, headers: key === null ? {} : { "Idempotency-Key": key } });
const act = (member: Member, id: string, action: string, init: { json?: unknown; headers?: Record<string, string> } = {}) =>
  member.api(`/api/tickets/${id}/${action}`, { method: "POST", ...init });
const bookingOf = async (response: Response) => (await response.json()).data.ticket as BookingBody;
const errorOf = async (response: Response) => (await response.json()).error as { code: string; message: string; fieldErrors?: Record<string, string[]> };

describe("listings API", () => {
  it("registers a listing for a signed-in seller (201), refuses bad input with Japanese field errors (400) and anyone signed out (401)", async () => {
    const seller = await createMember(server.app, "セラー");
    const signedOut = await server.app.request("/api/listings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(listingBody()),
    });
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ success: false, error: { code: "unauthorized", message: "認証が必要です" } });

    const bad = await seller.api("/api/listings", { json: { title: "", gameSlug: "", pricePerUnit: 150, minutesPerUnit: 45, maxUnits: 9 } });
    expect(bad.status).toBe(400);
    const error = await errorOf(bad);
    expect(error).toMatchObject({ code: "invalid_input", message: "入力内容を確認してください" });
    expect(Object.keys(error.fieldErrors!).sort()).toEqual(["gameSlug", "maxUnits", "minutesPerUnit", "pricePerUnit", "title"]);
    expect(error.fieldErrors!.gameSlug).toEqual(["選択してください"]);
    expect(error.fieldErrors!.pricePerUnit).toEqual(["選択肢から選んでください"]);
    for (const messages of Object.values(error.fieldErrors!)) for (const message of messages) expect(message).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    const unknownGame = await seller.api("/api/listings", { json: listingBody({ gameSlug: "no-such-game" }) });
    expect(unknownGame.status).toBe(400);
    expect((await seller.api("/api/listings", { method: "POST", body: "{not json" })).status).toBe(400);
    expect(await server.app.database.db.selectFrom("listings").select("id").where("seller_id", "=", seller.id).execute()).toEqual([]);

    const created = await seller.api("/api/listings", { json: listingBody() });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.success).toBe(true);
    expect(body.data.listing).toMatchObject({
      title: "一緒にランクマッチ",
      description: "楽しくやりましょう",
      pricePerUnit: 300,
      minutesPerUnit: 30,
      maxUnits: 4,
      status: "active",
      game: { slug: GAME, name: "APIテストゲーム" },
      seller: { uid: seller.id, displayName: "セラー" },
    });

    // Public: listed for anyone, by game and by seller.
    const listed = await server.app.request(`/api/listings?game=${GAME}&sellerId=${seller.id}`);
    expect(listed.status).toBe(200);
    const list = await listed.json();
    expect(list).toMatchObject({ success: true, data: { hasMore: false } });
    expect(list.data.listings.map((l: { id: string }) => l.id)).toEqual([body.data.listing.id]);
    expect((await server.app.request("/api/listings?limit=0")).status).toBe(400);
  });
});

describe("listing changes and who may buy", () => {
  it("lets only the seller pause and archive a listing; a paused one answers 409, an archived or blocked one 404 and 403, with Japanese messages", async () => {
    const [seller, buyer, other] = [await createMember(server.app, "出品者"), await createMember(server.app, "購入者"), await createMember(server.app, "他人")];
    const listing = await createListing(seller);
    await buyCoins(buyer, 2);
    const patch = (member: Member, json: unknown) => member.api(`/api/listings/${listing.id}`, { method: "PATCH", json });
    const body = { units: 1, desiredStartTime: startIn(60) };

    expect((await patch(other, { status: "paused" })).status).toBe(404);
    expect((await patch(seller, { status: "sleeping" })).status).toBe(400);
    const paused = await patch(seller, { status: "paused", pricePerUnit: 500 });
    expect(paused.status).toBe(200);
    expect((await paused.json()).data.listing).toMatchObject({ status: "paused", pricePerUnit: 500 });
    const refused = await purchase(buyer, listing.id, body);
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toBe("このチケットは現在受付を停止しています");
    // Not listed while paused; still readable by id.
    expect((await (await server.app.request(`/api/listings?sellerId=${seller.id}`)).json()).data.listings).toEqual([]);
    expect((await server.app.request(`/api/listings/${listing.id}`)).status).toBe(200);

    expect((await patch(seller, { status: "active" })).status).toBe(200);
    const booked = await purchase(buyer, listing.id, body);
    expect(booked.status).toBe(201);
    // The booking keeps the price it was bought at, whatever the listing says later.
    expect((await bookingOf(booked)).totalPrice).toBe(500);
    expect((await patch(seller, { pricePerUnit: 1000 })).status).toBe(200);
    expect((await (await buyer.api("/api/tickets/all")).json()).data.tickets[0].totalPrice).toBe(500);

    expect((await patch(seller, { status: "archived" })).status).toBe(200);
    expect((await patch(seller, { status: "active" })).status).toBe(409);
    expect((await server.app.request(`/api/listings/${listing.id}`)).status).toBe(404);
    expect((await seller.api(`/api/listings/${listing.id}`)).status).toBe(200);
    const gone = await purchase(buyer, listing.id, body);
    expect(gone.status).toBe(404);
    expect((await errorOf(gone)).message).toBe("チケットが見つかりません");

    const another = await createListing(seller);
    expect((await seller.api(`/api/users/${buyer.id}/block`, { method: "POST" })).status).toBe(200);
    const blocked = await purchase(buyer, another.id, body);
    expect(blocked.status).toBe(403);
    expect((await errorOf(blocked)).message).toBe("このユーザーのチケットは購入できません");
    const own = await purchase(seller, another.id, body);
    expect(own.status).toBe(422);
    expect((await errorOf(own)).message).toBe("自分のチケットは購入できません");
    expect(await balanceOf(buyer)).toBe(500);
  });
});

describe("purchase and bookings API", () => {
  it("needs an Idempotency-Key, books once per key (201 then 200), and answers 422 コインが足りません without enough coins", async () => {
    const [seller, buyer] = [await createMember(server.app, "売り手"), await createMember(server.app, "買い手")];
    const listing = await createListing(seller);
    await buyCoins(buyer, 1); // 500 coins
    const body = { units: 1, desiredStartTime: startIn(60), note: "よろしくお願いします" };

    const missing = await purchase(buyer, listing.id, body, null);
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toBe("Idempotency-Key ヘッダーが必要です");

    const key = randomUUID();
    const first = await purchase(buyer, listing.id, body, key);
    expect(first.status).toBe(201);
    const booking = await bookingOf(first);
    expect(booking).toMatchObject({ status: "pending", totalPrice: 300, totalMinutes: 30, isSeller: false, note: "よろしくお願いします" });
    const again = await purchase(buyer, listing.id, body, key);
    expect(again.status).toBe(200);
    expect((await bookingOf(again)).id).toBe(booking.id);
    const conflict = await purchase(buyer, listing.id, { ...body, units: 2 }, key);
    expect(conflict.status).toBe(409);
    expect(await balanceOf(buyer)).toBe(200);

    const poor = await purchase(buyer, listing.id, { ...body, units: 1 });
    expect(poor.status).toBe(422);
    expect(await errorOf(poor)).toEqual({ code: "insufficient_coins", message: "コインが足りません" });
    expect(await server.app.database.db.selectFrom("bookings").select("id").where("buyer_id", "=", buyer.id).execute()).toHaveLength(1);

    // Signed out: 401; one's own listing: 422; bad input: 400; an unknown listing: 404.
    const signedOut = await server.app.request(`/api/listings/${listing.id}/purchase`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify(body),
    });
    expect(signedOut.status).toBe(401);
    expect((await purchase(seller, listing.id, body)).status).toBe(422);
    expect((await purchase(buyer, listing.id, { units: 0, desiredStartTime: startIn(60) })).status).toBe(400);
    expect((await purchase(buyer, listing.id, { units: 1 })).status).toBe(400);
    expect((await purchase(buyer, listing.id, { units: 1, desiredStartTime: startIn(-60) })).status).toBe(400);
    expect((await purchase(buyer, randomUUID(), body)).status).toBe(404);
    expect(await balanceOf(buyer)).toBe(200);
    expect(await ledgerProblems(server.app.database.db)).toEqual([]);
  });

  it("reads a desiredStartTime below 1e12 as seconds, and lists bookings for both sides with the shape of docs/product.md#data", async () => {
    const [seller, buyer] = [await createMember(server.app, "売る人"), await createMember(server.app, "買う人")];
    const listing = await createListing(seller);
    await buyCoins(buyer, 2); // 1000 coins
    const seconds = Math.floor(startIn(120) / 1000);
    expect(seconds).toBeLessThan(1e12);
    const response = await purchase(buyer, listing.id, { units: 2, desiredStartTime: seconds });
    expect(response.status).toBe(201);
    const booking = await bookingOf(response);
    expect(booking.desiredStartTime).toBe(new Date(seconds * 1000).toISOString());
    // Milliseconds and an ISO string are read as they are.
    const ms = startIn(180);
    expect((await bookingOf(await purchase(buyer, listing.id, { units: 1, desiredStartTime: ms }))).desiredStartTime).toBe(new Date(ms).toISOString());

    const all = await buyer.api("/api/tickets/all");
    expect(all.status).toBe(200);
    const { data, success } = await all.json();
    expect(success).toBe(true);
    expect(data.tickets).toHaveLength(2);
    expect(data.tickets[1]).toMatchObject({
      id: booking.id,
      title: "一緒にランクマッチ",
      totalPrice: 600,
      totalMinutes: 60,
      desiredStartTime: new Date(seconds * 1000).toISOString(),
      isSeller: false,
      buyer: { displayName: "買う人", avatar: null },
      seller: { displayName: "売る人", avatar: null },
      status: "pending",
    });
    const asSeller = (await (await seller.api("/api/tickets/all")).json()).data.tickets as BookingBody[];
    expect(asSeller.map((t) => [t.id, t.isSeller])).toEqual(data.tickets.map((t: BookingBody) => [t.id, true]));
    expect((await server.app.request("/api/tickets/all")).status).toBe(401);
    const stranger = await createMember(server.app);
    expect((await (await stranger.api("/api/tickets/all")).json()).data.tickets).toEqual([]);
  });

  it("lets each party act: the seller accepts and starts, the buyer completes; a stranger gets 404, the other party 403, a wrong state 409", async () => {
    const [seller, buyer, stranger] = [await createMember(server.app, "ホスト"), await createMember(server.app, "ゲスト"), await createMember(server.app, "通りすがり")];
    const listing = await createListing(seller);
    await buyCoins(buyer, 2); // 1000 coins
    // The start may be pressed from 15 minutes before the desired start.
    const booking = await bookingOf(await purchase(buyer, listing.id, { units: 1, desiredStartTime: startIn(10) }));

    const strangerAccept = await act(stranger, booking.id, "accept");
    expect(strangerAccept.status).toBe(404);
    expect(await errorOf(strangerAccept)).toEqual({ code: "booking_not_found", message: "取引が見つかりません" });
    expect((await act(buyer, booking.id, "accept")).status).toBe(403);
    expect((await act(seller, booking.id, "start")).status).toBe(409);
    expect((await act(seller, randomUUID(), "accept")).status).toBe(404);
    expect((await act(seller, booking.id, "dance")).status).toBe(404);
    expect((await server.app.request(`/api/tickets/${booking.id}/accept`, { method: "POST" })).status).toBe(401);

    const accepted = await act(seller, booking.id, "accept");
    expect(accepted.status).toBe(200);
    expect(await bookingOf(accepted)).toMatchObject({ status: "accepted", isSeller: true });
    expect((await act(seller, booking.id, "accept")).status).toBe(200);

    expect((await act(buyer, booking.id, "start")).status).toBe(403);
    expect((await act(stranger, booking.id, "start")).status).toBe(404);
    const started = await act(seller, booking.id, "start");
    expect(started.status).toBe(200);
    const running = await bookingOf(started);
    expect(running).toMatchObject({ status: "in_progress" });
    expect(Date.parse(running.endsAt as string) - Date.parse(running.startedAt as string)).toBe(30 * MIN);

    // An extension needs its key, is the buyer's, and is bought once per key.
    expect((await act(buyer, booking.id, "extend", { json: { units: 1 } })).status).toBe(400);
    expect((await act(seller, booking.id, "extend", { json: { units: 1 }, headers: { "Idempotency-Key": randomUUID() } })).status).toBe(403);
    const key = randomUUID();
    const extended = await act(buyer, booking.id, "extend", { json: { units: 1 }, headers: { "Idempotency-Key": key } });
    expect(extended.status).toBe(200);
    expect(await bookingOf(extended)).toMatchObject({ totalPrice: 600, totalMinutes: 60 });
    expect(await bookingOf(await act(buyer, booking.id, "extend", { json: { units: 1 }, headers: { "Idempotency-Key": key } }))).toMatchObject({ totalPrice: 600 });
    // 2 more units are 600 coins; the buyer has 400 left.
    const broke = await act(buyer, booking.id, "extend", { json: { units: 2 }, headers: { "Idempotency-Key": randomUUID() } });
    expect(broke.status).toBe(422);
    expect((await errorOf(broke)).message).toBe("コインが足りません");

    // The seller may not complete before the end; the buyer may at any time.
    expect((await act(seller, booking.id, "complete")).status).toBe(409);
    expect((await act(stranger, booking.id, "complete")).status).toBe(404);
    const completed = await act(buyer, booking.id, "complete");
    expect(completed.status).toBe(200);
    expect(await bookingOf(completed)).toMatchObject({ status: "completed", completedBy: "buyer" });
    expect((await act(seller, booking.id, "complete")).status).toBe(200);
    expect((await act(buyer, booking.id, "cancel")).status).toBe(409);
    // 600 coins, less the 20% fee, are the seller's.
    expect(await balanceOf(seller)).toBe(480);
    expect(await balanceOf(buyer)).toBe(400);
    expect(await ledgerProblems(server.app.database.db)).toEqual([]);
  });
});

describe("booking notices in chat and realtime", () => {
  it("posts the purchase and the cancellation in the pair's DIRECT room, sends chat:message to both and game:started to the buyer", async () => {
    const [seller, buyer] = [await createMember(server.app, "配信者"), await createMember(server.app, "視聴者")];
    const listing = await createListing(seller);
    await buyCoins(buyer, 2);
    const [buyerSocket, sellerSocket] = [await server.socketOf(buyer), await server.socketOf(seller)];
    type Message = { messageType: string; chatRoomId: string; metadata: { type: string; buyerId: string; caption: string } };
    const toBuyer = collect<Message>(buyerSocket, "chat:message");
    const toSeller = collect<Message>(sellerSocket, "chat:message");
    const started = collect<{ bookingId: string; ticketTitle: string }>(buyerSocket, "game:started");
    const startedToSeller = collect(sellerSocket, "game:started");
    const extendedToSeller = collect<{ bookingId: string; message: string }>(sellerSocket, "game:extended");
    const noticesToBuyer = collect<{ type: string; title: string }>(buyerSocket, "notification:new");
    const noticesToSeller = collect<{ type: string; title: string }>(sellerSocket, "notification:new");

    const played = await bookingOf(await purchase(buyer, listing.id, { units: 1, desiredStartTime: startIn(5) }));
    await settle();
    expect(toBuyer.map((m) => m.messageType)).toEqual(["ticket_purchased"]);
    expect(toSeller).toEqual(toBuyer);
    expect(toSeller[0]!.metadata).toEqual({ type: "ticket_purchased", buyerId: buyer.id, caption: expect.stringContaining("開始希望") });
    const roomId = toSeller[0]!.chatRoomId;

    await act(seller, played.id, "accept");
    await act(seller, played.id, "start");
    await act(seller, played.id, "start");
    await settle();
    expect(started).toEqual([{ bookingId: played.id, ticketTitle: "一緒にランクマッチ" }]);
    expect(startedToSeller).toEqual([]);
    await act(buyer, played.id, "extend", { json: { units: 1 }, headers: { "Idempotency-Key": randomUUID() } });
    await settle();
    expect(extendedToSeller).toEqual([{ bookingId: played.id, message: expect.stringContaining("延長") }]);
    // Every transition told the other side once (the second start changed nothing).
    expect(noticesToSeller.map((n) => [n.type, n.title])).toEqual([
      ["booking", "「一緒にランクマッチ」が購入されました"],
      ["booking_extended", "「一緒にランクマッチ」が延長されました"],
    ]);
    expect(noticesToBuyer.map((n) => [n.type, n.title])).toEqual([
      ["booking", "「一緒にランクマッチ」が承認されました"],
      ["booking_started", "「一緒にランクマッチ」が開始されました"],
    ]);

    const cancelled = await bookingOf(await purchase(buyer, listing.id, { units: 1, desiredStartTime: startIn(120) }));
    expect((await act(buyer, cancelled.id, "cancel")).status).toBe(200);
    expect((await act(buyer, cancelled.id, "cancel")).status).toBe(200);
    await settle();
    expect(toSeller.map((m) => m.messageType)).toEqual(["ticket_purchased", "ticket_purchased", "ticket_cancelled"]);
    expect(new Set(toSeller.map((m) => m.chatRoomId))).toEqual(new Set([roomId]));

    // The same notices, persisted in the room both of them read.
    for (const member of [buyer, seller]) {
      const response = await member.api(`/api/chat/messages?roomId=${roomId}`);
      expect(response.status).toBe(200);
      const { messages } = (await response.json()).data as { messages: Message[] };
      expect(messages.map((m) => [m.messageType, m.metadata?.type, m.metadata?.buyerId])).toEqual([
        ["ticket_purchased", "ticket_purchased", buyer.id],
        ["ticket_purchased", "ticket_purchased", buyer.id],
        ["ticket_cancelled", "ticket_cancelled", buyer.id],
      ]);
    }
    const rooms = (await (await buyer.api("/api/chat/rooms")).json()).data.chatRooms as Array<{ id: string; type: string }>;
    expect(rooms.map((room) => [room.id, room.type])).toEqual([[roomId, "DIRECT"]]);
    // 1000 − 300 − 300 (extension) − 300 + 300 (refund).
    expect(await balanceOf(buyer)).toBe(400);
    expect(await ledgerProblems(server.app.database.db)).toEqual([]);
  });
});
