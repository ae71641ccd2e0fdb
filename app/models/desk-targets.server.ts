import { sql } from "kysely";
import type { Database, ReportTargetType } from "~/infra/db/tables";
import { PRIVATE_REFERENCE_PREFIX } from "~/infra/storage/keys";
import { UUID } from "~/lib/validation/fields";

/**
 * A reported item as its viewers saw it, for the operators' desk (ADR 071): the text, the picture (a chat picture or a
 * private post picture through the desk's own /admin/media/{id}, which checks the operator's role and that the
 * picture is one that was reported; a public one at its URL), when it was hidden.
 */

export interface DeskPicture {
  src: string;
  width: number;
  height: number;
}

export type TargetContent =
  | { kind: "user"; displayName: string; bio: string; avatarUrl: string | null; createdAt: Date; hiddenAt: null }
  | { kind: "post" | "chat_message"; text: string; picture: DeskPicture | null; createdAt: Date; hiddenAt: Date | null }
  | { kind: "listing"; title: string; description: string; createdAt: Date; hiddenAt: Date | null }
  | { kind: "review"; rating: number; comment: string; createdAt: Date; hiddenAt: Date | null };

/** Where the desk shows an upload: a private one through /admin/media/{id}, a public one at its URL. */
const pictureOf = (upload: { id: string | null; url: string | null; width: number | null; height: number | null }): DeskPicture | null =>
  upload.id && upload.url
    ? { src: upload.url.startsWith(PRIVATE_REFERENCE_PREFIX) ? `/admin/media/${upload.id}` : upload.url, width: upload.width ?? 0, height: upload.height ?? 0 }
    : null;

/** The reported item, or null when it no longer exists (or the id cannot name one). */
export async function contentOf(db: Database, type: ReportTargetType, id: string): Promise<TargetContent | null> {
  if (type === "chat_message" ? !/^[1-9]\d{0,17}$/.test(id) : !UUID.test(id)) return null;
  switch (type) {
    case "user": {
      const row = await db.selectFrom("users").select(["display_name", "bio", "avatar_url", "created_at"]).where("id", "=", id).executeTakeFirst();
      return row ? { kind: "user", displayName: row.display_name, bio: row.bio, avatarUrl: row.avatar_url, createdAt: row.created_at, hiddenAt: null } : null;
    }
    case "post": {
      const row = await db
        .selectFrom("posts as p")
        .leftJoin("uploads as up", "up.id", "p.upload_id")
        .select(["p.content", "p.hidden_at", "p.created_at", "up.id as upload_id", "up.url", "up.width", "up.height"])
        .where("p.id", "=", id)
        .executeTakeFirst();
      return row ? { kind: "post", text: row.content ?? "", picture: pictureOf({ id: row.upload_id, url: row.url, width: row.width, height: row.height }), createdAt: row.created_at, hiddenAt: row.hidden_at } : null;
    }
    case "chat_message": {
      const row = await db
        .selectFrom("chat_messages as m")
        .leftJoin("uploads as up", "up.id", "m.upload_id")
        .select(["m.content", "m.message_type", "m.metadata", "m.hidden_at", "m.created_at", "up.id as upload_id", "up.url", "up.width", "up.height"])
        .where("m.id", "=", Number(id))
        .executeTakeFirst();
      if (!row) return null;
      // A picture's words are its caption; its content names the file, which no viewer reads.
      const text = row.message_type === "IMAGE" ? (row.metadata?.caption ?? "") : row.content;
      return { kind: "chat_message", text, picture: pictureOf({ id: row.upload_id, url: row.url, width: row.width, height: row.height }), createdAt: row.created_at, hiddenAt: row.hidden_at };
    }
    case "listing": {
      const row = await db.selectFrom("listings").select(["title", "description", "hidden_at", "created_at"]).where("id", "=", id).executeTakeFirst();
      return row ? { kind: "listing", title: row.title, description: row.description, createdAt: row.created_at, hiddenAt: row.hidden_at } : null;
    }
    case "review": {
      const row = await db.selectFrom("reviews").select(["rating", "comment", "hidden_at", "created_at"]).where("id", "=", id).executeTakeFirst();
      return row ? { kind: "review", rating: row.rating, comment: row.comment, createdAt: row.created_at, hiddenAt: row.hidden_at } : null;
    }
  }
}

/**
 * A private picture an operator may open on the desk: one shown by a chat message or a post that someone reported
 * (whatever became of the report). Any other upload is not the desk's to show, and answers nothing.
 */
export async function findReportedPicture({ db, uploadId }: { db: Database; uploadId: string }) {
  const reported = sql<boolean>`(
    exists (select 1 from chat_messages m join reports r on r.target_type = 'chat_message' and r.target_id = m.id::text where m.upload_id = up.id)
    or exists (select 1 from posts p join reports r on r.target_type = 'post' and r.target_id = p.id::text where p.upload_id = up.id)
  )`;
  const row = await db
    .selectFrom("uploads as up")
    .select(["up.url", "up.content_type"])
    .where("up.id", "=", uploadId)
    .where("up.url", "like", `${PRIVATE_REFERENCE_PREFIX}%`)
    .where(reported)
    .executeTakeFirst();
  return row ? { reference: row.url, contentType: row.content_type } : undefined;
}
