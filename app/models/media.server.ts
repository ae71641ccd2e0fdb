import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
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
