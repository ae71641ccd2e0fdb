import { reviewPath } from "~/lib/paths";
import { sql, type Selectable, type SqlBool, type Transaction, type Updateable } from "kysely";
import type { BookingParty, BookingsTable, CancelReason, DB, Database, ListingStatus } from "~/infra/db/schema";
import type { Realtime } from "~/infra/realtime";
import {
  ACCEPT_DEADLINE_MS,
  AUTO_COMPLETE_AFTER_MS,
  BOOKING_HORIZON_MS,
  BOOKING_REMINDER_BATCH,
  BOOKING_REMINDER_BEFORE_MS,
  NOT_STARTED_CANCEL_AFTER_MS,
  SWEEP_BATCH,
  TICKETS_ALL_MAX,
} from "~/lib/constants";
import {
  bookingActionsFor,
  checkBookingAction,
  type BookingAction,
  type BookingFacts,
  type BookingRole,
  type BookingState,
  PARTY_LABELS,
} from "~/lib/booking-rules";
import { formatDateTime } from "~/lib/time";
import { messages } from "~/lib/messages";

const text = messages.bookings;
import { RealtimeEvent, type RealtimeEventName } from "~/lib/realtime-events";
import type { PurchaseInput } from "~/lib/validation/booking";
import { postDirectNotice, publishPosted, type PostedMessage } from "./chat.server";
import { holdInEscrow, refundEscrow, releaseEscrow } from "./coins.server";
import { BookingError } from "./listings.server";
import { ratingsOf, reviewedBookings, type Rating } from "./reviews.server";
import { publishNotifications, recordNotifications, type NotificationInput, type PendingNotifications } from "./notification.server";
import { lockPresentUsers } from "./user.server";

/**
 * Bookings (PRODUCT §4, §6): a buyer books units of a listing; the coins wait in escrow (`booking:{id}`) until the
 * session completes (to the seller less the fee) or is cancelled (back to the buyer). Every change is one
 * transaction that locks the booking row first and the wallets after it (always in that order), checks who may
 * do it and the state (~/lib/booking-rules), writes the booking, the ledger, the chat notice and the notifications
 * together, and announces them once committed. Asking for what is already done changes nothing.
 */

type Trx = Transaction<DB>;
type BookingRow = Selectable<BookingsTable>;

export interface TicketPerson {
  uid: string;
  displayName: string;
  avatar: string | null;
  rating: Rating;
}

/** SPEC §3's Booking/ticket, with what the pages need besides. */
export interface Ticket {
  id: string;
  listingId: string;
  title: string;
  totalPrice: number;
  totalMinutes: number;
  units: number;
  pricePerUnit: number;
  minutesPerUnit: number;
  desiredStartTime: string;
  note: string;
  status: BookingState;
  isSeller: boolean;
  buyer: TicketPerson;
  seller: TicketPerson;
  acceptDeadline: string;
  acceptedAt: string | null;
  startedAt: string | null;
  endsAt: string | null;
  buyerCheckedInAt: string | null;
  sellerCheckedInAt: string | null;
  completedAt: string | null;
  completedBy: BookingParty | null;
  cancelledAt: string | null;
  cancelledBy: BookingParty | null;
  cancelReason: CancelReason | null;
  createdAt: string;
  /** Completed and not yet reviewed by the viewer: the review dialog (or page) is offered. */
  canReview: boolean;
  /**
   * Every action of an open booking, whether the viewer may take it now, and if not why; a closed one (completed or
   * cancelled) has none, which is what a seller's long history is mostly made of (half of /api/tickets/all's bytes).
   */
  actions: Array<{
    action: BookingAction;
    label: string;
    allowed: boolean;
    /** Why it is not allowed now (null when allowed or already done). */
    reason: string | null;
    /** The action belongs to the other party: never this person's to take. */
    othersOnly: boolean;
  }>;
}

const escrowOf = (bookingId: string) => `booking:${bookingId}`;
const iso = (value: Date | null) => value?.toISOString() ?? null;
const ms = (value: Date | null) => value?.getTime() ?? null;

function factsOf(row: BookingRow): BookingFacts {
  return {
    status: row.status,
    desiredStartAt: row.desired_start_at.getTime(),
    acceptDeadlineAt: row.accept_deadline_at.getTime(),
    endsAt: ms(row.ends_at),
    buyerCheckedInAt: ms(row.buyer_checked_in_at),
    sellerCheckedInAt: ms(row.seller_checked_in_at),
  };
}

async function peopleOf(db: Database, ids: string[]) {
  const [rows, ratings] = await Promise.all([db.selectFrom("users").select(["id", "display_name", "avatar_url"]).where("id", "in", ids).execute(), ratingsOf(db, ids)]);
  return new Map(
    rows.map((row): [string, TicketPerson] => [row.id, { uid: row.id, displayName: row.display_name, avatar: row.avatar_url, rating: ratings.get(row.id)! }]),
  );
}

function toTicket(row: BookingRow, viewerId: string, people: Map<string, TicketPerson>, now: Date, reviewed: Set<string>): Ticket {
  const role: BookingRole = row.seller_id === viewerId ? "seller" : "buyer";
  const unknown = (uid: string): TicketPerson => ({ uid, displayName: text.unknownUser, avatar: null, rating: { average: null, count: 0 } });
  return {
    id: row.id,
    listingId: row.listing_id,
    title: row.title,
    totalPrice: row.total_price,
    totalMinutes: row.total_minutes,
    units: row.units,
    pricePerUnit: row.price_per_unit,
    minutesPerUnit: row.minutes_per_unit,
    desiredStartTime: row.desired_start_at.toISOString(),
    note: row.note,
    status: row.status,
    isSeller: role === "seller",
    buyer: people.get(row.buyer_id) ?? unknown(row.buyer_id),
    seller: people.get(row.seller_id) ?? unknown(row.seller_id),
    acceptDeadline: row.accept_deadline_at.toISOString(),
    acceptedAt: iso(row.accepted_at),
    startedAt: iso(row.started_at),
    endsAt: iso(row.ends_at),
    buyerCheckedInAt: iso(row.buyer_checked_in_at),
    sellerCheckedInAt: iso(row.seller_checked_in_at),
    completedAt: iso(row.completed_at),
    completedBy: row.completed_by,
    cancelledAt: iso(row.cancelled_at),
    cancelledBy: row.cancelled_by,
    cancelReason: row.cancel_reason,
    createdAt: row.created_at.toISOString(),
    canReview: row.status === "completed" && !reviewed.has(row.id),
    actions: (row.status === "completed" || row.status === "cancelled" ? [] : bookingActionsFor(factsOf(row), role, now.getTime())).map(({ action, label, verdict }) => ({
      action,
      label,
      allowed: verdict.kind === "allowed",
      reason: verdict.kind === "denied" ? verdict.reason : null,
      othersOnly: verdict.kind === "denied" && verdict.status === 403,
    })),
  };
}

async function ticketsOf(db: Database, rows: BookingRow[], viewerId: string, now: Date) {
  if (rows.length === 0) return [];
  const [people, reviewed] = await Promise.all([
    peopleOf(db, [...new Set(rows.flatMap((row) => [row.buyer_id, row.seller_id]))]),
    reviewedBookings(db, viewerId, rows.filter((row) => row.status === "completed").map((row) => row.id)),
  ]);
  return rows.map((row) => toTicket(row, viewerId, people, now, reviewed));
}

/** What a committed change announces: notifications, chat notices and realtime events. */
interface Effects {
  pending: PendingNotifications;
  posted: PostedMessage[];
  events: Array<{ userIds: string[]; event: RealtimeEventName; payload: unknown }>;
}
const noEffects = (): Effects => ({ pending: [], posted: [], events: [] });

function announce(realtime: Realtime, effects: Effects) {
  publishPosted(realtime, effects.posted);
  publishNotifications(realtime, effects.pending);
  for (const { userIds, event, payload } of effects.events) realtime.toUsers(userIds, event, payload);
}

const managementLink = "/settings/ticket-management";


/**
 * Books units of a listing (POST /api/listings/{id}/purchase and the booking form): the booking and its escrow in
 * one transaction, with the `ticket_purchased` notice in the pair's DIRECT room and the seller's notification.
 * The idempotency key makes it happen once: the same key answers the first booking; the same key with another
 * listing, units or start time is a 409.
 */
export async function purchaseListing({
  db,
  realtime,
  buyerId,
  listingId,
  input,
  idempotencyKey,
  now = new Date(),
}: {
  db: Database;
  realtime: Realtime;
  buyerId: string;
  listingId: string;
  input: PurchaseInput;
  idempotencyKey: string;
  now?: Date;
}): Promise<{ ticket: Ticket; isNew: boolean }> {
  const existing = await findByKey(db, buyerId, idempotencyKey);
  if (existing) return { ticket: await sameRequest(db, existing, { listingId, input }, buyerId, now), isNew: false };

  const listing = await db
    .selectFrom("listings as l")
    .innerJoin("users as u", "u.id", "l.seller_id")
    .select(["l.id", "l.seller_id", "l.title", "l.price_per_unit", "l.minutes_per_unit", "l.max_units", "l.status", "l.hidden_at", "u.display_name as seller_name"])
    .where("l.id", "=", listingId)
    .executeTakeFirst();
  if (!listing) throw new BookingError(404, "listing_not_found");
  const problem = purchaseProblem({
    listing: { sellerId: listing.seller_id, status: listing.status, maxUnits: listing.max_units, hidden: listing.hidden_at !== null },
    buyerId,
    input,
    now,
  });
  if (problem) throw problem;
  const buyer = await db.selectFrom("users").select("display_name").where("id", "=", buyerId).executeTakeFirst();
  if (!buyer) throw new BookingError(404, "profile_not_found");
  const blocked = await db
    .selectFrom("user_blocks")
    .select("blocker_id")
    .where("blocker_id", "=", listing.seller_id)
    .where("blocked_id", "=", buyerId)
    .executeTakeFirst();
  if (blocked) throw new BookingError(403, "blocked");

  const totalPrice = listing.price_per_unit * input.units;
  const totalMinutes = listing.minutes_per_unit * input.units;
  const outcome = await db.transaction().execute(async (trx) => {
    // Both people's rows are held while the booking is made: an account leaving (退会) at the same moment either
    // sees this booking and refuses, or has left and this booking is refused.
    const present = await lockPresentUsers(trx, [buyerId, listing.seller_id]);
    if (!present.has(listing.seller_id)) throw new BookingError(404, "listing_not_found");
    if (!present.has(buyerId)) throw new BookingError(404, "profile_not_found");
    // The listing again, held: hidden by the operators (PRODUCT §10) or paused since it was read above, it is refused;
    // a hide or pause at the same moment waits for this booking, which then existed before it.
    const still = await trx.selectFrom("listings").select(["status", "hidden_at"]).where("id", "=", listing.id).forShare().executeTakeFirstOrThrow();
    if (still.hidden_at !== null || still.status === "archived") throw new BookingError(404, "listing_not_found");
    if (still.status === "paused") throw new BookingError(409, "listing_paused");
    const booking = await trx
      .insertInto("bookings")
      .values({
        listing_id: listing.id,
        buyer_id: buyerId,
        seller_id: listing.seller_id,
        title: listing.title,
        price_per_unit: listing.price_per_unit,
        minutes_per_unit: listing.minutes_per_unit,
        units: input.units,
        total_price: totalPrice,
        total_minutes: totalMinutes,
        desired_start_at: input.desiredStartTime,
        note: input.note,
        accept_deadline_at: new Date(now.getTime() + ACCEPT_DEADLINE_MS),
        idempotency_key: idempotencyKey,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(["buyer_id", "idempotency_key"]).doNothing())
      .returningAll()
      .executeTakeFirst();
    // The same key raced in from another request and won: answer its booking below.
    if (!booking) return null;
    await holdInEscrow(trx, { payerId: buyerId, payeeId: listing.seller_id, amount: totalPrice, reference: escrowOf(booking.id) });
    const effects = noEffects();
    effects.posted.push(
      await postDirectNotice(trx, {
        senderId: buyerId,
        otherId: listing.seller_id,
        messageType: "ticket_purchased",
        content: text.purchasedNotice(listing.title, input.units, totalMinutes, totalPrice),
        metadata: { type: "ticket_purchased", buyerId, caption: text.startCaption(formatDateTime(input.desiredStartTime)) },
      }),
    );
    effects.pending = await recordNotifications(trx, [
      {
        userId: listing.seller_id,
        type: "booking",
        title: text.purchasedTitle(listing.title),
        body: text.purchasedBody(buyer.display_name, input.units, totalMinutes, formatDateTime(input.desiredStartTime)),
        link: managementLink,
        mail: "booking_requested",
      },
    ]);
    return { booking, effects };
  });
  if (!outcome) {
    const raced = await findByKey(db, buyerId, idempotencyKey);
    return { ticket: await sameRequest(db, raced!, { listingId, input }, buyerId, now), isNew: false };
  }
  announce(realtime, outcome.effects);
  const [ticket] = await ticketsOf(db, [outcome.booking], buyerId, now);
  return { ticket: ticket!, isNew: true };
}

/**
 * What stops this buyer from booking this listing now, before anything is written (the confirmation page says it
 * before the buyer pays; the purchase refuses with it): null when nothing does.
 */
export function purchaseProblem({
  listing,
  buyerId,
  input,
  now,
}: {
  listing: { sellerId: string; status: ListingStatus; maxUnits: number; hidden: boolean };
  buyerId: string;
  input: Pick<PurchaseInput, "units" | "desiredStartTime">;
  now: Date;
}): BookingError | null {
  // Hidden by the operators: not found, as for everyone but its seller (PRODUCT §10).
  if (listing.status === "archived" || (listing.hidden && listing.sellerId !== buyerId)) return new BookingError(404, "listing_not_found");
  if (listing.sellerId === buyerId) return new BookingError(422, "self_purchase");
  if (listing.status === "paused") return new BookingError(409, "listing_paused");
  if (input.units > listing.maxUnits) return new BookingError(400, "units_over_max", messages.tickets.unitsOverMax(listing.maxUnits));
  if (input.desiredStartTime.getTime() <= now.getTime()) return new BookingError(400, "start_in_past");
  if (input.desiredStartTime.getTime() > now.getTime() + BOOKING_HORIZON_MS) {
    return new BookingError(400, "start_too_far", messages.tickets.startTimeTooFar(BOOKING_HORIZON_MS / 86_400_000));
  }
  return null;
}

function findByKey(db: Database, buyerId: string, idempotencyKey: string) {
  return db.selectFrom("bookings").selectAll().where("buyer_id", "=", buyerId).where("idempotency_key", "=", idempotencyKey).executeTakeFirst();
}

/** A key seen before: the first booking when the request is the same one, else a 409. */
async function sameRequest(db: Database, row: BookingRow, request: { listingId: string; input: PurchaseInput }, buyerId: string, now: Date) {
  const same =
    row.listing_id === request.listingId && row.units === request.input.units && row.desired_start_at.getTime() === request.input.desiredStartTime.getTime();
  if (!same) throw new BookingError(409, "idempotency_conflict");
  const [ticket] = await ticketsOf(db, [row], buyerId, now);
  return ticket!;
}

/**
 * The caller's bookings as buyer and seller, newest first (GET /api/tickets/all, the management page). The newest of
 * each side come from their own index (bookings_buyer_idx, bookings_seller_idx), then merge: with `buyer_id = X or
 * seller_id = X`, PostgreSQL ORs two bitmaps and sorts every booking of the user (20,000 of a busy seller: 48–66 ms);
 * this reads at most two pages of the indexes (issue 37). Nobody buys their own ticket, so the sides do not overlap.
 */
export async function listTickets({ db, userId, now = new Date() }: { db: Database; userId: string; now?: Date }) {
  // Each side a derived table of its own: Kysely would apply a bare side's ORDER BY and LIMIT to the whole union.
  const side = (column: "buyer_id" | "seller_id") =>
    db
      .selectFrom((sub) =>
        sub.selectFrom("bookings").selectAll().where(column, "=", userId).orderBy("created_at", "desc").orderBy("id").limit(TICKETS_ALL_MAX).as("s")
      )
      .selectAll();
  const rows = await db
    .selectFrom(side("buyer_id").unionAll(side("seller_id")).as("b"))
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(TICKETS_ALL_MAX)
    .execute();
  return ticketsOf(db, rows, userId, now);
}

/** The caller's accepted and in-progress sessions that have not ended, soonest first (/mypage/schedule). */
export async function listUpcoming({ db, userId, now = new Date() }: { db: Database; userId: string; now?: Date }) {
  const rows = await db
    .selectFrom("bookings")
    .selectAll()
    .where((eb) => eb.or([eb("buyer_id", "=", userId), eb("seller_id", "=", userId)]))
    .where((eb) =>
      eb.or([eb("status", "=", "accepted"), eb.and([eb("status", "=", "in_progress"), eb("ends_at", ">", now)])]),
    )
    .orderBy("desired_start_at")
    .limit(TICKETS_ALL_MAX)
    .execute();
  return ticketsOf(db, rows, userId, now);
}

/** One booking of the caller; someone else's is not found. */
export async function getTicket({ db, userId, bookingId, now = new Date() }: { db: Database; userId: string; bookingId: string; now?: Date }) {
  const row = await db
    .selectFrom("bookings")
    .selectAll()
    .where("id", "=", bookingId)
    .where((eb) => eb.or([eb("buyer_id", "=", userId), eb("seller_id", "=", userId)]))
    .executeTakeFirst();
  if (!row) return null;
  const [ticket] = await ticketsOf(db, [row], userId, now);
  return ticket!;
}

/**
 * Does `action` to a booking on behalf of one of its two people (POST /api/tickets/{id}/{action} and the forms
 * of the pages). A stranger gets 404, the other party where the action is not theirs 403, a booking in a state
 * that does not allow it 409; what is already done answers the booking unchanged. An extension buys `units` more
 * while in progress and needs an idempotency key, so a repeated request buys them once.
 */
export async function actOnBooking({
  db,
  realtime,
  feePercent,
  userId,
  bookingId,
  action,
  units,
  idempotencyKey,
  now = new Date(),
}: {
  db: Database;
  realtime: Realtime;
  feePercent: number;
  userId: string;
  bookingId: string;
  action: BookingAction;
  units?: number;
  idempotencyKey?: string;
  now?: Date;
}): Promise<{ ticket: Ticket; changed: boolean }> {
  const outcome = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("bookings").selectAll().where("id", "=", bookingId).forUpdate().executeTakeFirst();
    if (!row || (row.buyer_id !== userId && row.seller_id !== userId)) throw new BookingError(404, "booking_not_found");
    const role: BookingRole = row.seller_id === userId ? "seller" : "buyer";
    if (action === "extend" && role === "buyer" && idempotencyKey) {
      const seen = await trx
        .selectFrom("booking_extensions")
        .select(["units"])
        .where("booking_id", "=", row.id)
        .where("idempotency_key", "=", idempotencyKey)
        .executeTakeFirst();
      if (seen) {
        if (seen.units !== units) throw new BookingError(409, "idempotency_conflict");
        return { row, effects: null };
      }
    }
    const verdict = checkBookingAction(factsOf(row), role, action, now.getTime());
    if (verdict.kind === "denied") throw new BookingError(verdict.status, verdict.code, verdict.reason);
    if (verdict.kind === "done") return { row, effects: null };
    return apply(trx, { row, actor: role, action, now, feePercent, units, idempotencyKey, cancelReason: verdict.cancelReason });
  });
  if (outcome.effects) announce(realtime, outcome.effects);
  const [ticket] = await ticketsOf(db, [outcome.row], userId, now);
  return { ticket: ticket!, changed: outcome.effects !== null };
}

/** Changes a locked booking, inside the caller's transaction; answers the new row and what to announce. */
async function apply(
  trx: Trx,
  {
    row,
    actor,
    action,
    now,
    feePercent,
    units,
    idempotencyKey,
    cancelReason,
  }: {
    row: BookingRow;
    actor: BookingRole | "auto";
    action: BookingAction;
    now: Date;
    feePercent: number;
    units?: number;
    idempotencyKey?: string;
    cancelReason?: CancelReason;
  },
): Promise<{ row: BookingRow; effects: Effects }> {
  const effects = noEffects();
  const people = await peopleOf(trx, [row.buyer_id, row.seller_id]);
  const buyerName = people.get(row.buyer_id)?.displayName ?? PARTY_LABELS.buyer;
  const sellerName = people.get(row.seller_id)?.displayName ?? PARTY_LABELS.seller;
  const actorName = actor === "buyer" ? buyerName : sellerName;
  const other = actor === "buyer" ? row.seller_id : row.buyer_id;
  const both = [row.buyer_id, row.seller_id];
  const notify = (inputs: Array<Omit<NotificationInput, "type">>, type = "booking") =>
    recordNotifications(trx, inputs.map((input) => ({ link: managementLink, ...input, type })));
  const update = (values: Updateable<BookingsTable>) =>
    trx
      .updateTable("bookings")
      .set({ ...values, updated_at: now })
      .where("id", "=", row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  const { title } = row;

  switch (action) {
    case "accept": {
      const updated = await update({ status: "accepted", accepted_at: now });
      effects.pending = await notify([
        { userId: row.buyer_id, title: text.acceptedTitle(title), body: text.acceptedBody(formatDateTime(row.desired_start_at)), mail: "booking_accepted" },
      ]);
      return { row: updated, effects };
    }
    case "cancel": {
      const reason = cancelReason ?? (actor === "auto" ? "accept_deadline" : actor);
      const updated = await update({ status: "cancelled", cancelled_at: now, cancelled_by: actor, cancel_reason: reason });
      await refundEscrow(trx, { reference: escrowOf(row.id) });
      const why = text.cancelledWhy[reason]({ buyer: buyerName, seller: sellerName });
      const body = text.cancelledBody(why, row.total_price);
      effects.posted.push(
        await postDirectNotice(trx, {
          senderId: actor === "buyer" ? row.buyer_id : row.seller_id,
          otherId: actor === "buyer" ? row.seller_id : row.buyer_id,
          messageType: "ticket_cancelled",
          content: text.cancelledNotice(title, why),
          metadata: { type: "ticket_cancelled", buyerId: row.buyer_id, caption: text.refundCaption(row.total_price) },
        }),
      );
      effects.pending = await notify(
        (actor === "auto" ? both : [other]).map((userId) => ({ userId, title: text.cancelledTitle(title), body, mail: "booking_cancelled" as const })),
      );
      return { row: updated, effects };
    }
    case "start": {
      const endsAt = new Date(now.getTime() + row.total_minutes * 60_000);
      // Starting is the seller being there: it counts as their check-in.
      const updated = await update({ status: "in_progress", started_at: now, ends_at: endsAt, seller_checked_in_at: row.seller_checked_in_at ?? now });
      effects.pending = await notify([{ userId: row.buyer_id, title: text.startedTitle(title), body: text.startedBody(formatDateTime(endsAt)) }], "booking_started");
      effects.events.push({ userIds: [row.buyer_id], event: RealtimeEvent.gameStarted, payload: { bookingId: row.id, ticketTitle: row.title } });
      return { row: updated, effects };
    }
    case "check-in": {
      const updated = await update(actor === "buyer" ? { buyer_checked_in_at: now } : { seller_checked_in_at: now });
      effects.pending = await notify([{ userId: other, title: text.checkedInTitle(actorName, title), body: text.checkedInBody }]);
      return { row: updated, effects };
    }
    case "extend": {
      if (!units || !idempotencyKey) throw new BookingError(400, "invalid_input");
      const price = row.price_per_unit * units;
      const minutes = row.minutes_per_unit * units;
      await trx.insertInto("booking_extensions").values({ booking_id: row.id, units, price, minutes, idempotency_key: idempotencyKey, created_at: now }).execute();
      await holdInEscrow(trx, { payerId: row.buyer_id, payeeId: row.seller_id, amount: price, reference: escrowOf(row.id) });
      const updated = await update({
        units: row.units + units,
        total_price: row.total_price + price,
        total_minutes: row.total_minutes + minutes,
        ends_at: new Date(row.ends_at!.getTime() + minutes * 60_000),
      });
      const message = text.extendedMessage(title, units, minutes, formatDateTime(updated.ends_at!));
      effects.pending = await notify([{ userId: row.seller_id, title: text.extendedTitle(title), body: text.extendedBody(buyerName, units, minutes, price) }], "booking_extended");
      effects.events.push({ userIds: both, event: RealtimeEvent.gameExtended, payload: { bookingId: row.id, message } });
      return { row: updated, effects };
    }
    case "complete": {
      const updated = await update({ status: "completed", completed_at: now, completed_by: actor });
      const paid = await releaseEscrow(trx, { reference: escrowOf(row.id), feePercent });
      // The review prompt (PRODUCT §6): both sides are asked, the one who completed it on the page they are on.
      const sellerBody = text.completedSellerBody(paid.credited, paid.fee, buyerName);
      const buyerBody = text.completedBuyerBody(sellerName);
      const link = reviewPath(row.id);
      const inputs = [
        ...(actor !== "seller" ? [{ userId: row.seller_id, title: text.completedTitle(title), body: sellerBody, link }] : []),
        ...(actor !== "buyer" ? [{ userId: row.buyer_id, title: text.completedTitle(title), body: buyerBody, link }] : []),
      ];
      effects.pending = await notify(inputs, "booking_completed");
      return { row: updated, effects };
    }
  }
}

/**
 * The booking deadlines (PRODUCT §6), as sweeper jobs: each claims its due bookings one at a time with
 * `FOR UPDATE SKIP LOCKED` and acts on each in its own transaction, so two processes sweeping at once never act
 * on one booking twice, and a booking someone is changing right now is left for the next run.
 */
export function bookingSweepJobs({ feePercent }: { feePercent: number }) {
  const job = (
    name: string,
    due: (trx: Trx, now: Date) => Promise<BookingRow | undefined>,
    action: BookingAction,
    cancelReason?: CancelReason,
  ) => ({
    name,
    async run({ db, realtime, now }: { db: Database; realtime: Realtime; now: Date }) {
      let done = 0;
      for (; done < SWEEP_BATCH; done++) {
        const outcome = await db.transaction().execute(async (trx) => {
          const row = await due(trx, now);
          return row ? apply(trx, { row, actor: "auto", action, now, feePercent, cancelReason }) : null;
        });
        if (!outcome) break;
        announce(realtime, outcome.effects);
      }
      return done;
    },
  });
  const claim = (trx: Trx) => trx.selectFrom("bookings").selectAll().limit(1).forUpdate().skipLocked();
  return [
    job(
      "accept deadline",
      (trx, now) => claim(trx).where("status", "=", "pending").where("accept_deadline_at", "<=", now).orderBy("accept_deadline_at").executeTakeFirst(),
      "cancel",
      "accept_deadline",
    ),
    job(
      "never started",
      (trx, now) =>
        claim(trx)
          .where("status", "=", "accepted")
          .where("desired_start_at", "<=", new Date(now.getTime() - NOT_STARTED_CANCEL_AFTER_MS))
          .orderBy("desired_start_at")
          .executeTakeFirst(),
      "cancel",
      "not_started",
    ),
    job(
      "auto-complete",
      (trx, now) =>
        claim(trx)
          .where("status", "=", "in_progress")
          .where("ends_at", "<=", new Date(now.getTime() - AUTO_COMPLETE_AFTER_MS))
          .orderBy("ends_at")
          .executeTakeFirst(),
      "complete",
    ),
  ];
}

/**
 * The start reminder (PRODUCT §3): both people of an accepted booking hear an hour before its start, in the bell and,
 * when away, by mail. Due bookings are claimed `FOR UPDATE SKIP LOCKED` a few at a time and marked
 * (`start_reminded_at`) in the transaction that records the reminders, so racing sweepers remind once. A booking
 * accepted when its start was already within the hour is not reminded: the acceptance told its start just now.
 */
export const bookingReminderJob = {
  name: "start reminder",
  async run({ db, realtime, now }: { db: Database; realtime: Realtime; now: Date }) {
    let done = 0;
    while (done < SWEEP_BATCH) {
      const pending = await db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom("bookings")
          .select(["id", "buyer_id", "seller_id", "title", "desired_start_at"])
          .where("status", "=", "accepted")
          .where("start_reminded_at", "is", null)
          .where("desired_start_at", ">", now)
          .where("desired_start_at", "<=", new Date(now.getTime() + BOOKING_REMINDER_BEFORE_MS))
          .where(sql<SqlBool>`accepted_at <= desired_start_at - ${sql.lit(`${BOOKING_REMINDER_BEFORE_MS / 1000} seconds`)}::interval`)
          .orderBy("desired_start_at")
          .orderBy("id")
          .limit(BOOKING_REMINDER_BATCH)
          .forUpdate()
          .skipLocked()
          .execute();
        if (due.length === 0) return null;
        await trx.updateTable("bookings").set({ start_reminded_at: now }).where("id", "in", due.map((row) => row.id)).execute();
        done += due.length;
        return recordNotifications(
          trx,
          due.flatMap((row) => {
            const start = formatDateTime(row.desired_start_at);
            const common = { type: "booking", title: text.reminderTitle(row.title), link: managementLink, mail: "booking_reminder" } as const;
            return [
              { ...common, userId: row.seller_id, body: text.reminderSellerBody(start) },
              { ...common, userId: row.buyer_id, body: text.reminderBuyerBody(start) },
            ];
          }),
        );
      });
      if (!pending) break;
      publishNotifications(realtime, pending);
    }
    return done;
  },
};

/**
 * Cancels every open booking (pending, accepted, in progress) of a user the operators suspend or ban (ADR 030), in
 * the caller's transaction, which holds the user's row: each booking locked, its whole escrow (extensions included)
 * back to the buyer through the ledger, the chat notice and both people's notifications written as for any
 * cancellation. Answers the cancelled bookings and a function that announces them once committed (when a realtime
 * server is at hand).
 */
export async function cancelOpenBookingsByModeration(trx: Trx, { userId, now }: { userId: string; now: Date }) {
  const open = await trx
    .selectFrom("bookings")
    .selectAll()
    .where((eb) => eb.or([eb("buyer_id", "=", userId), eb("seller_id", "=", userId)]))
    .where("status", "in", ["pending", "accepted", "in_progress"])
    .orderBy("id")
    .forUpdate()
    .execute();
  const cancelled: BookingRow[] = [];
  const all: Effects[] = [];
  for (const row of open) {
    const { row: updated, effects } = await apply(trx, { row, actor: "auto", action: "cancel", now, feePercent: 0, cancelReason: "moderation" });
    cancelled.push(updated);
    all.push(effects);
  }
  return { cancelled, announce: (realtime: Realtime) => all.forEach((effects) => announce(realtime, effects)) };
}

export { BookingError };
