import { sql } from "kysely";
import type { AppConfig } from "~/infra/config";
import type { Database } from "~/infra/db/tables";
import { localPrivateFile, PRIVATE_REFERENCE_PREFIX, type ImageStorage } from "~/infra/storage";
import { MEDIA_SIGNED_URL_SECONDS } from "~/lib/constants";
import { mediaPath } from "~/lib/paths";
import { UUID } from "~/lib/validation/fields";
import { visibleTo } from "./chat.server";

/** Which picture of an upload: the full one, or its thumbnail. */
export type MediaSize = "full" | "small";

/**
 * A private picture as `viewerId` may see it (ADR 069, 070), or undefined: its uploader; the members of the room of
 * the message that shows it (a message the operators hid: its sender only); for a subscriber-only post's image, the
 * viewers with a subscription to its author that has not expired at `now` (a post the operators hid: its author
 * only). Anyone else, like a signed-out visitor, learns nothing, not even that it exists. Answers the stored
 * reference of the size asked for and its content type.
 */
export async function findViewableMedia({
  db,
  viewerId,
  uploadId,
  size,
  now = new Date(),
}: {
  db: Database;
  viewerId: string;
  uploadId: string;
  size: MediaSize;
  now?: Date;
}) {
  const row = await db
    .selectFrom("uploads as up")
    .select(["up.url", "up.variant_url", "up.content_type"])
    .where("up.id", "=", uploadId)
    .where("up.url", "like", "private:%")
    .where((eb) =>
      eb.or([
        eb("up.owner_id", "=", viewerId),
        eb.exists(
          eb
            .selectFrom("chat_messages as m")
            .innerJoin("chat_participants as p", "p.room_id", "m.room_id")
            .select(sql`1`.as("one"))
            .whereRef("m.upload_id", "=", "up.id")
            .where("p.user_id", "=", viewerId)
            .where(visibleTo(viewerId)),
        ),
        eb.exists(
          eb
            .selectFrom("posts as p")
            .innerJoin("subscriptions as s", (join) => join.onRef("s.subscribee_id", "=", "p.author_id"))
            .select(sql`1`.as("one"))
            .whereRef("p.upload_id", "=", "up.id")
            .where("p.is_public", "=", false)
            .where("p.hidden_at", "is", null)
            .where("s.subscriber_id", "=", viewerId)
            .where("s.expires_at", ">", now),
        ),
      ]),
    )
    .executeTakeFirst();
  if (!row) return undefined;
  return { reference: size === "small" ? (row.variant_url ?? row.url) : row.url, contentType: row.content_type };
}

/** A reported picture as an operator reads it (ADR 070): where to view it, and what it is. */
export interface OperatorMedia {
  uploadId: string;
  /** The app's own path of a private picture (/media/{id}: its uploader and readers only), or the public URL. */
  path: string;
  contentType: string;
  width: number;
  height: number;
  /** A URL that shows it for MEDIA_SIGNED_URL_SECONDS (a bucket's signed URL), or the public URL; null on the local disk. */
  viewUrl: string | null;
  /** On the local disk, the private file to open (DATA_DIR/uploads-private/…); null otherwise. */
  file: string | null;
}

/**
 * The picture a report points at (a chat message's, a post's), for an operator to look at: the `npm run moderation --
 * show` command and the operators' pages. Not checked against the viewer: whoever calls this has decided the caller
 * is an operator. Undefined when the report names no picture, or it was removed.
 */
export async function readMediaForOperator({
  db,
  storage,
  config,
  reportId,
}: {
  db: Database;
  storage: ImageStorage;
  config: Pick<AppConfig, "DATA_DIR">;
  reportId: number;
}): Promise<OperatorMedia | undefined> {
  const report = await db.selectFrom("reports").select(["target_type", "target_id"]).where("id", "=", reportId).executeTakeFirst();
  if (!report) return undefined;
  let uploadId: string | null | undefined;
  if (report.target_type === "chat_message" && /^[1-9][0-9]{0,17}$/.test(report.target_id)) {
    uploadId = (await db.selectFrom("chat_messages").select("upload_id").where("id", "=", Number(report.target_id)).executeTakeFirst())?.upload_id;
  } else if (report.target_type === "post" && UUID.test(report.target_id)) {
    uploadId = (await db.selectFrom("posts").select("upload_id").where("id", "=", report.target_id).executeTakeFirst())?.upload_id;
  }
  if (!uploadId) return undefined;
  const upload = await db.selectFrom("uploads").select(["id", "url", "content_type", "width", "height"]).where("id", "=", uploadId).executeTakeFirst();
  if (!upload) return undefined;
  const isPrivate = upload.url.startsWith(PRIVATE_REFERENCE_PREFIX);
  const signed = await storage.signedUrl(upload.url, { expiresInSeconds: MEDIA_SIGNED_URL_SECONDS });
  return {
    uploadId: upload.id,
    path: isPrivate ? mediaPath(upload.id) : upload.url,
    contentType: upload.content_type,
    width: upload.width,
    height: upload.height,
    viewUrl: signed ?? (isPrivate ? null : upload.url),
    file: signed ? null : localPrivateFile(config, upload.url),
  };
}
