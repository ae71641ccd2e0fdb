import type { Transaction } from "kysely";
import type { DB } from "~/infra/db/schema";

/**
 * Hidden content (PRODUCT §10, issue 27): a post, chat message, listing or review the operators hid is shown to its
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MESSAGE_ID = /^[1-9][0-9]{0,17}$/;

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
  const hiddenAt = hidden ? now : null;
  switch (targetType) {
    case "post": {
      if (!UUID.test(targetId)) return null;
      const row = await trx.selectFrom("posts").select(["author_id as owner", "hidden_at"]).where("id", "=", targetId).forUpdate().executeTakeFirst();
      if (!row) return null;
      const changed = (row.hidden_at !== null) !== hidden;
      if (changed) await trx.updateTable("posts").set({ hidden_at: hiddenAt }).where("id", "=", targetId).execute();
      return { ownerId: row.owner, changed };
    }
    case "chat_message": {
      if (!MESSAGE_ID.test(targetId)) return null;
      const id = Number(targetId);
      const row = await trx.selectFrom("chat_messages").select(["sender_id as owner", "hidden_at"]).where("id", "=", id).forUpdate().executeTakeFirst();
      if (!row) return null;
      const changed = (row.hidden_at !== null) !== hidden;
      if (changed) await trx.updateTable("chat_messages").set({ hidden_at: hiddenAt }).where("id", "=", id).execute();
      return { ownerId: row.owner, changed };
    }
    case "listing": {
      if (!UUID.test(targetId)) return null;
      const row = await trx.selectFrom("listings").select(["seller_id as owner", "hidden_at"]).where("id", "=", targetId).forUpdate().executeTakeFirst();
      if (!row) return null;
      const changed = (row.hidden_at !== null) !== hidden;
      if (changed) await trx.updateTable("listings").set({ hidden_at: hiddenAt }).where("id", "=", targetId).execute();
      return { ownerId: row.owner, changed };
    }
    case "review": {
      if (!UUID.test(targetId)) return null;
      const row = await trx.selectFrom("reviews").select(["reviewer_id as owner", "hidden_at"]).where("id", "=", targetId).forUpdate().executeTakeFirst();
      if (!row) return null;
      const changed = (row.hidden_at !== null) !== hidden;
      // The rating totals follow by trigger (migration 0017).
      if (changed) await trx.updateTable("reviews").set({ hidden_at: hiddenAt }).where("id", "=", targetId).execute();
      return { ownerId: row.owner, changed };
    }
  }
}
