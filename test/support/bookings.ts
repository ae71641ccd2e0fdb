import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { BookingAction } from "~/lib/booking-rules";
import type { RealtimeEventName } from "~/lib/realtime-events";
import { actOnBooking } from "~/models/bookings/act.server";
import { purchaseListing } from "~/models/bookings/purchase.server";
import type { Booking } from "~/models/bookings/view.server";
import { creditPurchase, getBalance, ledgerProblems } from "~/models/coins.server";
import { createListing, type Listing } from "~/models/listings.server";
import type { Realtime } from "../../app/infra/realtime";
import { createTestDatabase, type TestDatabase } from "./database";

// The fixtures of the bookings tests (test/integration/bookings.test.ts): a clock, a realtime recorder, and on one
// database the people, coins, listings and bookings a test makes, with the checks that a step changed nothing.

export const FEE = 20;
export const MIN = 60_000;
export const HOUR = 60 * MIN;
/** A fixed clock: every test moves time from here. */
export const T0 = new Date("2031-01-10T03:00:00.000Z");
export const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs);
export const START = 2 * HOUR;
export const GAME = "booking-test-game";

export interface Emitted {
  userIds: readonly string[];
  event: RealtimeEventName;
  payload: unknown;
}
export function recorder() {
  const emitted: Emitted[] = [];
  const joined: Array<{ userIds: readonly string[]; roomId: string }> = [];
  const realtime: Realtime = {
    toUsers: (userIds, event, payload) => void emitted.push({ userIds: [...userIds], event, payload }),
    joinRoom: (userIds, roomId) => void joined.push({ userIds: [...userIds], roomId }),
    disconnectUser: async () => {},
  };
  return { realtime, emitted, joined };
}

/** A fresh database with the one game the listings are in. */
export async function newBookingsDatabase() {
  const database = await createTestDatabase();
  await database.db.insertInto("games").values({ slug: GAME, name: "テストゲーム", name_kana: "てすとげーむ" }).execute();
  return database;
}

/** What a test needs on one database: people, coins, listings, bookings and the counts that must not move twice. */
export function bookingHelpers(getDatabase: () => TestDatabase) {
  const db = () => getDatabase().db;
  const rec = recorder();
  const newUsers = async (count: number) => {
    const ids = Array.from({ length: count }, () => randomUUID());
    await db()
      .insertInto("users")
      .values(ids.map((id, index) => ({ id, display_name: `ゲーマー${index}` })))
      .execute();
    return ids;
  };
  const buy = (userId: string, coins: number) =>
    db()
      .transaction()
      .execute((trx) => creditPurchase(trx, { userId, coins, reference: `test:${randomUUID()}` }));
  const newListing = (sellerId: string, input: Partial<{ pricePerUnit: number; minutesPerUnit: number; maxUnits: number }> = {}) =>
    createListing({
      db: db(),
      sellerId,
      input: { title: "ランク上げ手伝います", gameSlug: GAME, description: "", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 4, ...input },
    });
  const book = (
    buyerId: string,
    listing: Listing,
    { units = 1, start = at(START), key = randomUUID(), now = T0 }: { units?: number; start?: Date; key?: string; now?: Date } = {},
  ) =>
    purchaseListing({
      db: db(),
      realtime: rec.realtime,
      buyerId,
      listingId: listing.id,
      input: { units, desiredStartTime: start, note: "" },
      idempotencyKey: key,
      now,
    });
  const act = (userId: string, bookingId: string, action: BookingAction, now: Date, extension: { units?: number; idempotencyKey?: string } = {}) =>
    actOnBooking({ db: db(), realtime: rec.realtime, feePercent: FEE, userId, bookingId, action, now, ...extension });
  const count = async (table: "coin_transactions" | "notifications" | "chat_messages" | "bookings" | "booking_extensions") =>
    Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow()).n);
  const counts = async () => ({
    ledger: await count("coin_transactions"),
    notifications: await count("notifications"),
    messages: await count("chat_messages"),
    extensions: await count("booking_extensions"),
    emitted: rec.emitted.length,
  });
  const total = async (userId: string) => (await getBalance(db(), userId)).totalBalance;
  const noLedgerProblems = async () => expect(await ledgerProblems(db())).toEqual([]);
  /** The booking's ledger rows: [kind, user, amount, fee]. */
  const ledgerOf = async (bookingId: string) =>
    (
      await db()
        .selectFrom("coin_transactions")
        .select(["kind", "user_id", "amount", "fee"])
        .where("reference", "=", `booking:${bookingId}`)
        .orderBy("id")
        .execute()
    ).map((row) => [row.kind, row.user_id, row.amount, row.fee]);
  /** Expects an act to be refused with this status and code, and to change nothing. */
  const refused = async (attempt: () => Promise<unknown>, status: number, code: string) => {
    const before = await counts();
    await expect(attempt()).rejects.toMatchObject({ status, code });
    expect(await counts()).toEqual(before);
  };
  /** Expects an act that is already done to answer the booking unchanged, writing and announcing nothing. */
  const repeated = async (attempt: () => Promise<{ booking: Booking; changed: boolean }>) => {
    const before = await counts();
    const { booking, changed } = await attempt();
    expect(changed).toBe(false);
    expect(await counts()).toEqual(before);
    return booking;
  };
  return { db, rec, newUsers, buy, newListing, book, act, counts, total, noLedgerProblems, ledgerOf, refused, repeated };
}

