import type { Updateable } from "kysely";
import type { BookingsTable, CancelReason } from "~/infra/db/tables";
import { PARTY_LABELS, type BookingAction, type BookingRole } from "~/lib/booking-rules";
import { recordNotifications, type NotificationInput } from "../notification.server";
import { managementLink, noEffects, type Effects } from "./effects.server";
import { peopleOf, type BookingRow, type Trx } from "./view.server";

/**
 * What every step of a booking's life (accept, start, check in, extend, complete, cancel) works with: the booking's
 * row, locked by the caller's transaction, who acts, and helpers that write inside that transaction.
 */
export interface StepInput {
  row: BookingRow;
  actor: BookingRole | "auto";
  action: BookingAction;
  now: Date;
  feePercent: number;
  units?: number;
  idempotencyKey?: string;
  cancelReason?: CancelReason;
}

/** The new row and what to announce once the transaction commits. */
export type StepResult = Promise<{ row: BookingRow; effects: Effects }>;

export type Step = Awaited<ReturnType<typeof stepOf>>;

/** The names of the two people, who is the other one, and the two writes every step makes (the row, notifications). */
export async function stepOf(trx: Trx, input: StepInput) {
  const { row, actor, now } = input;
  const people = await peopleOf(trx, [row.buyer_id, row.seller_id]);
  const buyerName = people.get(row.buyer_id)?.displayName ?? PARTY_LABELS.buyer;
  const sellerName = people.get(row.seller_id)?.displayName ?? PARTY_LABELS.seller;
  return {
    ...input,
    trx,
    effects: noEffects(),
    buyerName,
    sellerName,
    actorName: actor === "buyer" ? buyerName : sellerName,
    other: actor === "buyer" ? row.seller_id : row.buyer_id,
    both: [row.buyer_id, row.seller_id],
    title: row.title,
    notify: (inputs: Array<Omit<NotificationInput, "type">>, type = "booking") =>
      recordNotifications(trx, inputs.map((notification) => ({ link: managementLink, ...notification, type }))),
    update: (values: Updateable<BookingsTable>) =>
      trx
        .updateTable("bookings")
        .set({ ...values, updated_at: now })
        .where("id", "=", row.id)
        .returningAll()
        .executeTakeFirstOrThrow(),
  };
}
