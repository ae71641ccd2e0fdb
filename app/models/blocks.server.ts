import type { Database } from "~/infra/db/tables";
import { ChatError } from "./chat.server";

/**
 * Blocking and unblocking someone, and whether either of two people blocked the other (`user_blocks`). What a block
 * keeps apart is decided where each thing is read or made (chat, posts, presence, bookings, reviews, …).
 */

export async function blockUser({ db, blockerId, blockedId }: { db: Database; blockerId: string; blockedId: string }) {
  if (blockerId === blockedId) throw new ChatError(422, "self_block");
  const exists = await db.selectFrom("users").select("id").where("id", "=", blockedId).executeTakeFirst();
  if (!exists) throw new ChatError(404, "user_not_found");
  await db
    .insertInto("user_blocks")
    .values({ blocker_id: blockerId, blocked_id: blockedId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Whether the viewer blocked the other person, and whether the other person blocked the viewer. */
export async function blockStatus({ db, viewerId, otherId }: { db: Database; viewerId: string; otherId: string }) {
  const rows = await db
    .selectFrom("user_blocks")
    .select("blocker_id")
    .where((eb) =>
      eb.or([
        eb.and([eb("blocker_id", "=", viewerId), eb("blocked_id", "=", otherId)]),
        eb.and([eb("blocker_id", "=", otherId), eb("blocked_id", "=", viewerId)]),
      ]),
    )
    .execute();
  return { byViewer: rows.some((row) => row.blocker_id === viewerId), ofViewer: rows.some((row) => row.blocker_id === otherId) };
}

export async function unblockUser({ db, blockerId, blockedId }: { db: Database; blockerId: string; blockedId: string }) {
  await db.deleteFrom("user_blocks").where("blocker_id", "=", blockerId).where("blocked_id", "=", blockedId).execute();
}
