import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";

/** What the local disk's images are served at (app/infra/storage/local.ts): `/uploads/{key}`. */
const LOCAL_PREFIX = "/uploads/";
/** Keys per statement: a few hundred URLs in an IN list stay well inside either engine's limits. */
const CHUNK = 500;

/**
 * Points the rows that name these local images (`/uploads/{key}`: the uploads table and the avatars copied from it) at
 * `{publicBase}/{key}` instead, in one transaction: `npm run storage:copy -- --rewrite-urls` (ADR 066), once the keys
 * are in the bucket. Rows of any other image are left as they are, so a second run changes nothing. Answers how many
 * rows of each changed.
 */
export async function pointLocalUploadsAt(db: Database, { keys, publicBase }: { keys: readonly string[]; publicBase: string }) {
  const changed = { uploads: 0, avatars: 0 };
  const rewritten = sql<string>`${publicBase} || substr(${sql.ref("url")}, ${LOCAL_PREFIX.length})`;
  await db.transaction().execute(async (trx) => {
    for (let from = 0; from < keys.length; from += CHUNK) {
      const urls = keys.slice(from, from + CHUNK).map((key) => `${LOCAL_PREFIX}${key}`);
      const uploads = await trx.updateTable("uploads").set({ url: rewritten }).where("url", "in", urls).executeTakeFirst();
      const avatars = await trx
        .updateTable("users")
        .set({ avatar_url: sql<string>`${publicBase} || substr(${sql.ref("avatar_url")}, ${LOCAL_PREFIX.length})` })
        .where("avatar_url", "in", urls)
        .executeTakeFirst();
      changed.uploads += Number(uploads.numUpdatedRows);
      changed.avatars += Number(avatars.numUpdatedRows);
    }
  });
  return changed;
}
