import { sql, type Transaction } from "kysely";
import type { DB, Database, MediaRemovalsTable } from "~/infra/db/tables";
import { log } from "~/infra/logger.server";
import type { ImageStorage } from "~/infra/storage";
import { MEDIA_REMOVAL_BATCH } from "~/lib/constants";
import { messages } from "~/lib/messages";

/**
 * Removing pictures (ADR 070): the database first, the store after the commit. Inside the caller's transaction (the
 * operators hide a message, an account closes) the uploads' rows go, the messages that showed them become texts
 * saying the picture was removed (their caption after it), and the objects' references are written to `media_removals`. Once committed, the
 * caller removes the objects (removeQueuedMedia); whatever fails then (the store unreachable) stays queued and the
 * sweeper tries it again every run. A row is never left naming an object that is gone.
 */

type Trx = Transaction<DB>;
export type RemovalReason = MediaRemovalsTable["reason"];

/** Takes these uploads out of the database and queues their objects (the full picture and its variant). Answers how many went. */
export async function dropUploads(trx: Trx, { uploadIds, reason }: { uploadIds: readonly string[]; reason: RemovalReason }) {
  if (uploadIds.length === 0) return 0;
  // The message becomes a text saying so, its caption kept after it (and in its metadata, marked removed): every
  // reader (the room, the API, summaries) shows that without knowing about removed pictures.
  await trx
    .updateTable("chat_messages")
    .set({
      upload_id: null,
      message_type: "TEXT",
      content: sql<string>`${messages.chat.imageRemoved} || coalesce(E'\n' || nullif(metadata->>'caption', ''), '')`,
      metadata: sql<string>`coalesce(metadata, '{}'::jsonb) || '{"removed": true}'::jsonb`,
    })
    .where("upload_id", "in", uploadIds)
    .execute();
  const gone = await trx.deleteFrom("uploads").where("id", "in", uploadIds).returning(["url", "variant_url"]).execute();
  const urls = [...new Set(gone.flatMap((row) => [row.url, row.variant_url]).filter((url): url is string => url !== null))];
  if (urls.length > 0) await trx.insertInto("media_removals").values(urls.map((url) => ({ url, reason }))).execute();
  return gone.length;
}

/** The picture of one chat message (hidden by the operators): out of the database, its objects queued. */
export async function dropMessagePicture(trx: Trx, { messageId }: { messageId: string }) {
  const rows = await trx.selectFrom("chat_messages").select("upload_id").where("id", "=", Number(messageId)).where("upload_id", "is not", null).execute();
  return dropUploads(trx, { uploadIds: rows.map((row) => row.upload_id!), reason: "hidden" });
}

/**
 * Every upload of a closing account (退会): its chat pictures, sent or not, its posts' images and its avatar. Its posts
 * must be gone already (a post's image cannot go while the post shows it).
 */
export async function dropUploadsOf(trx: Trx, { userId }: { userId: string }) {
  const rows = await trx.selectFrom("uploads").select("id").where("owner_id", "=", userId).execute();
  return dropUploads(trx, { uploadIds: rows.map((row) => row.id), reason: "account_closed" });
}

/**
 * Removes queued objects from the store: a batch, each row locked (another process skips it), its object removed
 * unless another upload still names it (objects are named by their content), then the row deleted. A removal that
 * fails is counted on its row and tried again next time. Answers how many rows were done.
 */
export async function removeQueuedMedia({ db, storage, limit = MEDIA_REMOVAL_BATCH }: { db: Database; storage: ImageStorage; limit?: number }) {
  return db.transaction().execute(async (trx) => {
    const due = await trx.selectFrom("media_removals").select(["id", "url"]).orderBy("id").limit(limit).forUpdate().skipLocked().execute();
    if (due.length === 0) return 0;
    const urls = due.map((row) => row.url);
    const named = new Set(
      (await trx.selectFrom("uploads").select(["url", "variant_url"]).where((eb) => eb.or([eb("url", "in", urls), eb("variant_url", "in", urls)])).execute()).flatMap((row) => [
        row.url,
        row.variant_url,
      ]),
    );
    let done = 0;
    for (const row of due) {
      if (!named.has(row.url)) {
        try {
          await storage.remove([row.url]);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          await trx
            .updateTable("media_removals")
            .set((eb) => ({ attempts: eb("attempts", "+", 1), last_error: message.slice(0, 500) }))
            .where("id", "=", row.id)
            .execute();
          log.warn({ event: "media_removal", id: row.id, err: error }, "media: could not remove an object; the sweeper tries again");
          continue;
        }
      }
      await trx.deleteFrom("media_removals").where("id", "=", row.id).execute();
      done++;
    }
    return done;
  });
}

/** After a commit that queued removals: tries them now; a failure is logged and left to the sweeper. */
export async function removeQueuedMediaNow({ db, storage }: { db: Database; storage?: ImageStorage }) {
  if (!storage) return;
  await removeQueuedMedia({ db, storage }).catch((error) => log.error({ event: "media_removal", err: error }, "media: removals left to the sweeper"));
}

/** The sweeper's job (server/app/sweeps.ts): what a commit could not remove at once. */
export const mediaRemovalJob = (storage: ImageStorage) => ({
  name: "media removal",
  run: ({ db }: { db: Database }) => removeQueuedMedia({ db, storage }),
});
