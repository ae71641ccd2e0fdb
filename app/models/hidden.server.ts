import { sql, type Transaction } from "kysely";
import type { DB } from "~/infra/db/tables";
import { UUID } from "../lib/validation/fields";

/**
 * Hidden content (docs/product.md#trust-and-safety): a post, chat message, listing or review the operators hid is shown to its
 * author alone, marked 「運営により非表示」, and to nobody else in any list, page or API. The rule itself lives in
 * each model's read query (posts, chat, listings, reviews); this is the one write that moves it. A hidden review
 * counts in no rating: migration 0017's trigger moves the reviewee's totals and their listings' copy with
 * `hidden_at`, so whoever hides or restores (the operators' command, a test) keeps them right.
 */

export type HiddenTargetType = "post" | "chat_message" | "listing" | "review";

/** What hiding or restoring came to: whose the item is, and whether it changed (hiding a hidden item changes nothing). */
export interface HiddenOutcome {
  ownerId: string;
  changed: boolean;
}

const MESSAGE_ID = /^[1-9][0-9]{0,17}$/;

/** Where each kind of item lives, whose it is, and what its id looks like. */
const TARGETS: Record<HiddenTargetType, { table: keyof DB; owner: string; id: RegExp }> = {
  post: { table: "posts", owner: "author_id", id: UUID },
  chat_message: { table: "chat_messages", owner: "sender_id", id: MESSAGE_ID },
  listing: { table: "listings", owner: "seller_id", id: UUID },
  // A review's rating totals follow its hidden_at by trigger (migration 0017).
  review: { table: "reviews", owner: "reviewer_id", id: UUID },
};

/**
 * Hides (`hidden: true`) or restores an item inside the caller's transaction, holding its row; answers its owner
 * (author, sender, seller or reviewer) and whether it changed, or null when there is no such item (also for an id of
 * the wrong shape, so a report's free-text target id never reaches the database as a bad cast). A second hide keeps
 * the first time.
 */
export async function setHidden({
  trx,
  targetType,
  targetId,
  hidden,
  now = new Date(),
}: {
  trx: Transaction<DB>;
  targetType: HiddenTargetType;
  targetId: string;
  hidden: boolean;
  now?: Date;
}): Promise<HiddenOutcome | null> {
  const target = TARGETS[targetType];
  if (!target.id.test(targetId)) return null;
  const table = sql.table(target.table);
  const {
    rows: [row],
  } = await sql<{ owner: string; hidden: boolean }>`
    select ${sql.ref(target.owner)} as owner, hidden_at is not null as hidden from ${table} where id = ${targetId} for update
  `.execute(trx);
  if (!row) return null;
  const changed = row.hidden !== hidden;
  if (changed) await sql`update ${table} set hidden_at = ${hidden ? now : null} where id = ${targetId}`.execute(trx);
  return { ownerId: row.owner, changed };
}
