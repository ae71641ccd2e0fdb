import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
import { localUploadUrl, LOCAL_UPLOADS_PATH } from "~/infra/storage";

/** Keys per statement: a few hundred URLs in an IN list stay well inside either engine's limits. */
const CHUNK = 500;

/**
 * Points the rows that name these local images (`/uploads/{key}`: the uploads table and the avatars copied from it) at
 * `{publicBase}/{key}` instead, in one transaction: `npm run storage:copy -- --rewrite-urls` (ADR 066), once the keys
 * are in the bucket. Rows of any other image are left as they are, so a second run changes nothing. Answers how many
 * rows of each changed.
 */
export async function pointLocalUploadsAt(db: Database, { keys, publicBase }: { keys: readonly string[]; publicBase: string }) {
  // `/uploads/post/….png` → `{publicBase}/post/….png`: what follows the local path, after the bucket's base.
  const moved = (column: "url" | "avatar_url") => sql<string>`${publicBase} || substr(${sql.ref(column)}, ${LOCAL_UPLOADS_PATH.length + 1})`;
  const changed = { uploads: 0, avatars: 0 };
  await db.transaction().execute(async (trx) => {
    for (let from = 0; from < keys.length; from += CHUNK) {
      const urls = keys.slice(from, from + CHUNK).map(localUploadUrl);
      const uploads = await trx.updateTable("uploads").set({ url: moved("url") }).where("url", "in", urls).executeTakeFirst();
      const avatars = await trx.updateTable("users").set({ avatar_url: moved("avatar_url") }).where("avatar_url", "in", urls).executeTakeFirst();
      changed.uploads += Number(uploads.numUpdatedRows);
      changed.avatars += Number(avatars.numUpdatedRows);
    }
  });
  return changed;
}
