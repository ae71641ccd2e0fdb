import { notifySessionsEnded } from "./auth/sessions.server";
import { cancelOpenBookingsByModeration } from "./bookings/cancel.server";
import { setHidden } from "./hidden.server";
import {
  checkReasonText,
  decideReports,
  emptyOutcome,
  lockReport,
  ModerationError,
  recordAction,
  runDecision,
  type DecisionInput,
  type DecisionOutcome,
  type Trx,
} from "./moderation.server";
import { UUID } from "../lib/validation/fields";

/**
 * The operators' decisions on people (ADR 030), each one transaction like every decision (./moderation.server.ts):
 *
 * - suspend USER / ban USER: the user's row locked first; `suspended_until` / `banned_at` set, every session revoked,
 *   active listings paused (marked, so lifting reactivates them), open bookings either side cancelled with the escrow
 *   back to the buyer through the ledger, requested payouts held, and `sessions_ended` notified so the server process
 *   closes the user's sockets when this commits.
 * - restore REPORT|USER: un-hides the reported item, or lifts the user's suspension or ban (listings the suspension
 *   paused active again, held payouts requested again); refunded bookings stay refunded.
 */


/** Locks a user's row (the first thing a suspension, ban or lift does); a missing or left account is not found. */
async function lockUser(trx: Trx, userId: string) {
  if (!UUID.test(userId)) throw new ModerationError("user_not_found");
  const user = await trx.selectFrom("users").select(["id", "deleted_at", "suspended_until", "banned_at"]).where("id", "=", userId).forUpdate().executeTakeFirst();
  if (!user || user.deleted_at) throw new ModerationError("user_not_found");
  return user;
}

/**
 * `suspend USER_ID --days N` (until = now + N days) and `ban USER_ID` (no end). The user's row is locked before
 * anything else, so a booking that takes it `FOR SHARE` (lockPresentUsers) either committed before, and is cancelled
 * here, or waits and is refused: no booking is ever left in escrow with a stopped seller. A suspension of someone
 * suspended sets the new end; of someone banned is refused.
 */
export async function stopUser({
  userId,
  days,
  reason,
  now = new Date(),
  ...input
}: DecisionInput & { userId: string; /** Days of suspension; none is a ban. */ days?: number }): Promise<DecisionOutcome> {
  const why = checkReasonText(reason);
  const ban = days === undefined;
  const { outcome } = await runDecision(input, async (trx) => {
    const user = await lockUser(trx, userId);
    if (user.banned_at) throw new ModerationError("already_banned");
    const until = ban ? null : new Date(now.getTime() + days * 86_400_000);
    await trx
      .updateTable("users")
      .set(ban ? { banned_at: now, suspended_until: null } : { suspended_until: until })
      .where("id", "=", userId)
      .execute();
    const sessions = await trx
      .updateTable("auth_sessions")
      .set({ revoked_at: now, revoked_reason: ban ? "banned" : "suspended" })
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .returning("id")
      .execute();
    // Delivered when this commits, to every process listening (server/app.ts closes the user's sockets).
    await notifySessionsEnded(trx, { userId });
    const paused = await trx
      .updateTable("listings")
      .set({ status: "paused", moderation_paused_at: now, updated_at: now })
      .where("seller_id", "=", userId)
      .where("status", "=", "active")
      .returning("id")
      .execute();
    const bookings = await cancelOpenBookingsByModeration(trx, { userId, now });
    const held = await trx
      .updateTable("payout_requests")
      .set({ status: "held" })
      .where("seller_id", "=", userId)
      .where("status", "=", "requested")
      .returning("id")
      .execute();
    const action = await recordAction(trx, { action: ban ? "ban" : "suspend", reason: why, now, userId, targetType: "user", targetId: userId, until });
    const decided = await decideReports(trx, { targetUserId: userId }, "actioned", now);
    return {
      outcome: {
        ...emptyOutcome(action),
        reportsDecided: decided.count,
        sessionsRevoked: sessions.length,
        listingsPaused: paused.length,
        bookingsCancelled: bookings.cancelled.map((row) => ({ id: row.id, buyerId: row.buyer_id, refunded: row.total_price })),
        payoutsHeld: held.length,
      },
      pending: decided.pending,
      announce: bookings.announce,
    };
  });
  return outcome;
}

/**
 * `restore ID`: a report's id un-hides its item when the item is hidden; otherwise (a user's report, or the item not
 * hidden) and for a USER_ID, lifts the owner's suspension or ban: the listings the suspension paused are active
 * again, held payouts requested again. Refunded bookings stay refunded, closed sessions closed. Reports stay decided.
 */
export async function restore({ reportId, userId, reason, now = new Date(), ...input }: DecisionInput & { reportId?: number; userId?: string }): Promise<DecisionOutcome> {
  const why = checkReasonText(reason);
  const { outcome } = await runDecision(input, async (trx) => {
    let ownerId = userId;
    if (reportId !== undefined) {
      const report = await lockReport(trx, reportId);
      ownerId = report.target_user_id;
      if (report.target_type !== "user") {
        const unhidden = await setHidden({ trx, targetType: report.target_type, targetId: report.target_id, hidden: false, now });
        if (unhidden?.changed) {
          const action = await recordAction(trx, {
            action: "restore",
            reason: why,
            now,
            reportId,
            targetType: report.target_type,
            targetId: report.target_id,
            userId: report.target_user_id,
          });
          return { outcome: emptyOutcome(action), pending: [] };
        }
      }
    }
    const user = await lockUser(trx, ownerId!);
    const stopped = user.banned_at !== null || user.suspended_until !== null;
    const reactivated = await trx
      .updateTable("listings")
      .set({ status: "active", moderation_paused_at: null, updated_at: now })
      .where("seller_id", "=", user.id)
      .where("moderation_paused_at", "is not", null)
      .where("status", "=", "paused")
      .returning("id")
      .execute();
    // A listing its seller archived meanwhile keeps its state; only the mark goes.
    await trx.updateTable("listings").set({ moderation_paused_at: null }).where("seller_id", "=", user.id).where("moderation_paused_at", "is not", null).execute();
    const requested = await trx.updateTable("payout_requests").set({ status: "requested" }).where("seller_id", "=", user.id).where("status", "=", "held").returning("id").execute();
    if (!stopped && reactivated.length === 0 && requested.length === 0) throw new ModerationError("nothing_to_restore");
    await trx.updateTable("users").set({ suspended_until: null, banned_at: null }).where("id", "=", user.id).execute();
    const action = await recordAction(trx, { action: "restore", reason: why, now, reportId: reportId ?? null, targetType: "user", targetId: user.id, userId: user.id });
    return { outcome: { ...emptyOutcome(action), listingsReactivated: reactivated.length, payoutsRequestedAgain: requested.length }, pending: [] };
  });
  return outcome;
}
