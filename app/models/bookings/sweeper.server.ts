import { sql, type SqlBool } from "kysely";
import type { CancelReason, Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import type { BookingAction } from "~/lib/booking-rules";
import { AUTO_COMPLETE_AFTER_MS, BOOKING_REMINDER_BATCH, BOOKING_REMINDER_BEFORE_MS, NOT_STARTED_CANCEL_AFTER_MS, SWEEP_BATCH } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { formatDateTime } from "~/lib/time";
import { publishNotifications, recordNotifications } from "../notification.server";
import { applyStep } from "./apply.server";
import { announce, managementLink } from "./effects.server";
import type { BookingRow, Trx } from "./view.server";

/**
 * The booking deadlines (ADR 015), as sweeper jobs: each claims its due bookings one at a time with
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
          return row ? applyStep(trx, { row, actor: "auto", action, now, feePercent, cancelReason }) : null;
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
 * The start reminder: both people of an accepted booking hear an hour before its start, in the bell and,
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
            const common = { type: "booking", title: messages.bookings.reminderTitle(row.title), link: managementLink, mail: "booking_reminder" } as const;
            return [
              { ...common, userId: row.seller_id, body: messages.bookings.reminderSellerBody(start) },
              { ...common, userId: row.buyer_id, body: messages.bookings.reminderBuyerBody(start) },
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
