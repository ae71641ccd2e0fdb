import { sql, type Transaction } from "kysely";
import { closeLocalAccount } from "~/infra/auth/close-account";
import type { DB, Database } from "~/infra/db/tables";
import { log } from "~/infra/logger.server";
import type { Realtime } from "~/infra/realtime";
import type { ImageStorage } from "~/infra/storage";
import { DomainError } from "~/lib/domain-error";
import { messages } from "~/lib/messages";
import { forfeitBalance, getBalance, lockWallet } from "./coins.server";
import { dropUploadsOf, removeQueuedMediaNow } from "./media-removal.server";
import { removeAllPushDevices } from "./push.server";

/**
 * Leaving the service (退会, docs/product.md#accounts, ADR 028). Refused while something is open that another person or the money
 * trail depends on: a booking in a non-final state (either side), coins held in escrow, a payout not yet decided.
 * Otherwise one transaction ends the account: sessions revoked and the address freed (local auth), the coins left
 * forfeited through the ledger, the profile reduced to 「退会したユーザー」, posts and every image deleted, listings
 * archived, subscriptions and the plan ended, memberships, seats, footprints, blocks, notifications and mail settings
 * removed. Bookings, reviews, chat messages (without their pictures) and the ledger stay whole: others' history keeps its rows, and the name
 * they show is the left account's new one.
 */

type Trx = Transaction<DB>;

/** What stops an account from leaving now: counts and coins, each 0 when nothing is open. */
export interface OpenMatters {
  /** Bookings as buyer or seller that are pending, accepted or in progress. */
  openBookings: number;
  /** Coins held in escrow that the user paid or is to be paid. */
  escrowCoins: number;
  /** Payout requests the operator has not decided. */
  requestedPayouts: number;
}

export class AccountError extends DomainError<409, "open_matters" | "already_left"> {
  constructor(
    status: 409,
    code: "open_matters" | "already_left",
    readonly matters?: OpenMatters,
  ) {
    super(status, code);
  }
}

const hasOpenMatters = (matters: OpenMatters) => matters.openBookings > 0 || matters.escrowCoins > 0 || matters.requestedPayouts > 0;

/** Why the account cannot leave now, one Japanese sentence per reason (none: it can). */
export function openMatterReasons(matters: OpenMatters): string[] {
  return [
    ...(matters.openBookings > 0 ? [messages.account.openBookings(matters.openBookings)] : []),
    ...(matters.escrowCoins > 0 ? [messages.account.coinsInEscrow(matters.escrowCoins)] : []),
    ...(matters.requestedPayouts > 0 ? [messages.account.payoutRequested(matters.requestedPayouts)] : []),
  ];
}

async function openMattersOf(db: Database | Trx, userId: string): Promise<OpenMatters> {
  const { rows } = await sql<{ open_bookings: string; escrow_coins: string; requested_payouts: string }>`
    select
      (select count(*) from bookings
        where (buyer_id = ${userId} or seller_id = ${userId}) and status in ('pending', 'accepted', 'in_progress')) as open_bookings,
      (select coalesce(sum(purchased + earned), 0) from coin_escrows
        where status = 'held' and (payer_id = ${userId} or payee_id = ${userId})) as escrow_coins,
      (select count(*) from payout_requests where seller_id = ${userId} and status = 'requested') as requested_payouts
  `.execute(db);
  const row = rows[0]!;
  return { openBookings: Number(row.open_bookings), escrowCoins: Number(row.escrow_coins), requestedPayouts: Number(row.requested_payouts) };
}

/** What the leaving page shows before the password is asked: what is still open, and the coins that would be forfeited. */
export async function leavingSummary({ db, userId }: { db: Database; userId: string }) {
  const [matters, balance] = await Promise.all([openMattersOf(db, userId), getBalance(db, userId)]);
  return { matters, canLeave: !hasOpenMatters(matters), balance: balance.totalBalance };
}

/**
 * Ends the account, in one transaction. The user's row is locked first (made as a bare row if they never set up a
 * profile, so it can carry `deleted_at`), then their wallet; only then is what is open checked, so a booking, payout
 * or transfer of theirs that starts meanwhile either finished before (and is seen) or waits and finds the account
 * gone (bookings, subscriptions and reviews take the people's rows `FOR SHARE`, lockPresentUsers). Something open is a
 * 409 `open_matters` and nothing changes. Answers the coins forfeited.
 *
 * Every upload of the account (posts' images, the avatar, chat pictures) is removed from storage after the commit,
 * unless another upload row still names the same content-addressed file; a failure there is left to the sweeper
 * (ADR 070), not the user's.
 */
export async function leaveAccount({
  db,
  storage,
  realtime,
  userId,
  now = new Date(),
}: {
  db: Database;
  storage?: ImageStorage;
  /** Closes the account's open sockets once it has left. */
  realtime?: Realtime;
  userId: string;
  now?: Date;
}): Promise<{ forfeited: number }> {
  const { forfeited } = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("users")
      .values({ id: userId, display_name: messages.account.leftUserName })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    const user = await trx.selectFrom("users").select("deleted_at").where("id", "=", userId).forUpdate().executeTakeFirstOrThrow();
    if (user.deleted_at) throw new AccountError(409, "already_left");
    await lockWallet(trx, userId);
    const matters = await openMattersOf(trx, userId);
    if (hasOpenMatters(matters)) throw new AccountError(409, "open_matters", matters);

    const forfeited = await forfeitBalance(trx, { userId, reference: `leave:${userId}` });

    // The profile: the name others' history shows from now on, and nothing else.
    await trx.deleteFrom("user_games").where("user_id", "=", userId).execute();
    await trx
      .updateTable("users")
      .set({ display_name: messages.account.leftUserName, avatar_url: null, bio: "", email: null, deleted_at: now, updated_at: now, online_announced: false })
      .where("id", "=", userId)
      .execute();

    await trx.deleteFrom("user_presence").where("user_id", "=", userId).execute();

    // Posts, then every upload: their images, the avatar, and the chat pictures (their messages stay, saying the
    // picture was removed), the objects queued for removal after the commit (ADR 070).
    await trx.deleteFrom("posts").where("author_id", "=", userId).execute();
    await dropUploadsOf(trx, { userId });

    await trx.updateTable("listings").set({ status: "archived", updated_at: now }).where("seller_id", "=", userId).where("status", "<>", "archived").execute();
    // Subscriptions either way end now (no refund: the coins went to the seller when paid); the plan is withdrawn.
    await trx
      .updateTable("subscriptions")
      .set({ expires_at: now, updated_at: now })
      .where((eb) => eb.or([eb("subscriber_id", "=", userId), eb("subscribee_id", "=", userId)]))
      .where("expires_at", ">", now)
      .execute();
    await trx.deleteFrom("subscription_plans").where("seller_id", "=", userId).execute();

    // Communities and seats at events to come are given up, with their counts.
    const memberships = await trx.deleteFrom("community_members").where("user_id", "=", userId).returning("community_id").execute();
    if (memberships.length) {
      await trx
        .updateTable("communities")
        .set((eb) => ({ members_count: eb("members_count", "-", 1) }))
        .where("id", "in", memberships.map((row) => row.community_id))
        .execute();
    }
    const seats = await trx
      .deleteFrom("event_participants")
      .where("user_id", "=", userId)
      .where("event_id", "in", (eb) => eb.selectFrom("events").select("id").where("starts_at", ">", now))
      .returning("event_id")
      .execute();
    if (seats.length) {
      await trx
        .updateTable("events")
        .set((eb) => ({ participants_count: eb("participants_count", "-", 1) }))
        .where("id", "in", seats.map((row) => row.event_id))
        .execute();
    }

    await trx.deleteFrom("footprints").where((eb) => eb.or([eb("visitor_id", "=", userId), eb("visited_id", "=", userId)])).execute();
    await trx.deleteFrom("user_blocks").where("blocker_id", "=", userId).execute();
    await trx.deleteFrom("notifications").where("user_id", "=", userId).execute();
    await trx.deleteFrom("mail_opt_outs").where("user_id", "=", userId).execute();
    // Mail not yet sent to the address is about an account that no longer exists.
    await trx.deleteFrom("mail_outbox").where("user_id", "=", userId).where("sent_at", "is", null).execute();
    // No device gets a push for the account any more (its waiting pushes go with them), and its push choices go.
    await removeAllPushDevices(trx, { userId, preferences: true });

    await closeLocalAccount(trx, { userId, now });
    return { forfeited };
  });

  await realtime?.disconnectUser(userId).catch((error) => log.error({ err: error, userId }, "account: could not close a left account's sockets"));
  await removeQueuedMediaNow({ db, storage });
  return { forfeited };
}
