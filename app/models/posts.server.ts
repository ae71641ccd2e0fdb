import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
import type { ImageStorage } from "~/infra/storage";
import { PRIVATE_REFERENCE_PREFIX } from "~/infra/storage";
import { POST_RATE_LIMIT } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { looksLikeOffPlatformPayment } from "~/lib/off-platform";
import { mediaPath } from "~/lib/paths";
import { POST_CURSOR_PATTERN, type PostInput } from "~/lib/validation/post";
import { NOBODY } from "./presence.server";
import { enqueuePostPushes } from "./push-outbox.server";
import { rateLimitWindowCte } from "./rate-limit.server";
import { acceptUpload, findOwnUpload } from "./uploads.server";

/**
 * Posts (docs/product.md#data, #validation; docs/product.md#data): text and/or one image, by a person with a profile. The image is one of the
 * author's own uploads (kind `post`), so a post never points at someone else's file or an outside URL, and pages
 * draw it with its width and height. Who sees a post is decided here, once, for every page and API that lists them.
 */

export class PostError extends DomainError<400 | 403 | 404 | 429, "image_not_found" | "image_audience" | "profile_required" | "post_not_found" | "rate_limited" | "not_community_member"> {}

export interface PostImage {
  url: string;
  width: number;
  height: number;
}

export interface Post {
  id: string;
  /** Null for a post without text, and for a locked one. */
  content: string | null;
  imageUrl: string | null;
  image: PostImage | null;
  /** The post has a picture (also when it is locked and the picture is not given). */
  hasImage: boolean;
  isPublic: boolean;
  /** Subscriber-only and the viewer is not an active subscriber: shown as a locked card, without its text or image. */
  locked: boolean;
  /** Hidden by the operators (docs/product.md#trust-and-safety): only its author is shown it, marked 「運営により非表示」. */
  hidden: boolean;
  author: { uid: string; displayName: string; avatar: string | null };
  createdAt: string;
}

/** A page of posts, newest first, and the cursor of the next (older) page when there is one. */
export interface PostPage {
  posts: Post[];
  nextCursor: string | null;
}

const cursorOf = (post: { createdAt: string; id: string }) => `${Date.parse(post.createdAt)}_${post.id}`;

/**
 * Who sees what, decided here once for every list and API (ADR 018, 019). A viewer is shown every post except those
 * of authors they blocked; they may open (read the text, see the image) public posts, their own, and the
 * subscriber-only posts of authors they subscribe to while the subscription has not expired at `now`. Any other post
 * is locked. A post the operators hid is its author's alone (docs/product.md#trust-and-safety): for everyone else it does not exist.
 */
function postsQuery(db: Database, viewerId: string | null, now: Date, { authorId }: { authorId?: string } = {}) {
  const viewer = viewerId ?? NOBODY;
  return db
    .selectFrom("posts as p")
    .innerJoin("users as u", "u.id", "p.author_id")
    .leftJoin("uploads as i", "i.id", "p.upload_id")
    .select(["p.id", "p.content", "p.is_public", "p.created_at", "p.hidden_at", "p.author_id", "u.display_name", "u.avatar_url", "i.id as upload_id", "i.url", "i.width", "i.height"])
    .select((eb) =>
      eb
        .or([
          eb("p.is_public", "=", true),
          eb("p.author_id", "=", viewer),
          eb.exists(
            eb.selectFrom("subscriptions as s").select("s.id").where("s.subscriber_id", "=", viewer).whereRef("s.subscribee_id", "=", "p.author_id").where("s.expires_at", ">", now),
          ),
        ])
        .as("open"),
    )
    .where((eb) => eb.or([eb("p.hidden_at", "is", null), eb("p.author_id", "=", viewer)]))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("user_blocks as b")
            .select("b.blocker_id")
            .where("b.blocker_id", "=", viewer)
            // One author's posts: asked once about that author, not per post. Correlated, the planner guessed that
            // almost no post survives it, so a LIMIT did not pay and it sorted all 5,000 posts of a busy author
            // rather than reading the newest from posts_author_idx (70-350 ms at SCALE=10).
            .where("b.blocked_id", "=", authorId ?? eb.ref("p.author_id")),
        ),
      ),
    );
}
type PostRow = Awaited<ReturnType<ReturnType<typeof postsQuery>["executeTakeFirstOrThrow"]>>;

function toPost(row: PostRow): Post {
  const locked = !row.open;
  // A subscriber-only post's image is private (ADR 070): its readers get it through /media, checked again there.
  const url = row.url && row.upload_id && row.url.startsWith(PRIVATE_REFERENCE_PREFIX) ? mediaPath(row.upload_id) : row.url;
  const image = url && !locked ? { url, width: row.width!, height: row.height! } : null;
  return {
    id: row.id,
    content: locked ? null : row.content,
    imageUrl: image?.url ?? null,
    image,
    hasImage: row.url !== null,
    isPublic: row.is_public,
    locked,
    hidden: row.hidden_at !== null,
    author: { uid: row.author_id, displayName: row.display_name, avatar: row.avatar_url },
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Publishes a post for the author (POST /api/posts/create, the new post dialog and its page). Its image is either one
 * of the author's uploads (`input.imageUrl`, the dialog's way: uploaded first) or the bytes of one (`upload`, the
 * page's single POST), stored by the uploads model inside this transaction. At most five posts a minute (docs/product.md#constants):
 * the count, the upload's row and the post are one transaction, so a refused post leaves nothing behind. A text that
 * looks like an off-platform payment (docs/product.md#trust-and-safety) is counted for the operators in the same transaction.
 */
export async function createPost({
  db,
  authorId,
  input,
  upload,
}: {
  db: Database;
  authorId: string;
  input: PostInput;
  upload?: { storage: ImageStorage; bytes: Uint8Array };
}): Promise<Post> {
  const id = await db.transaction().execute(async (trx) => {
    const author = await trx.selectFrom("users").select("id").where("id", "=", authorId).executeTakeFirst();
    if (!author) throw new PostError(403, "profile_required");
    const counted = await sql<{ bucket: string }>`with admitted as (select 1),
      ${rateLimitWindowCte({ bucket: `posts:user:${authorId}`, ...POST_RATE_LIMIT, from: "admitted" })}
      select bucket from rate_limit_counted`.execute(trx);
    if (counted.rows.length === 0) throw new PostError(429, "rate_limited");
    // Only a member posts into a community; the row is held so a leave at the same moment waits for this post.
    if (input.communityId) {
      const member = await trx
        .selectFrom("community_members")
        .select("user_id")
        .where("community_id", "=", input.communityId)
        .where("user_id", "=", authorId)
        .forShare()
        .executeTakeFirst();
      if (!member) throw new PostError(403, "not_community_member");
    }
    let uploadId: string | null = null;
    if (upload) {
      const subscribersOnly = !input.isPublic;
      uploadId = (await acceptUpload({ db: trx, storage: upload.storage, userId: authorId, kind: "post", bytes: upload.bytes, subscribersOnly })).id;
    } else if (input.imageUrl) {
      const own = await findOwnUpload({ db: trx, userId: authorId, url: input.imageUrl, kind: "post" });
      if (!own) throw new PostError(400, "image_not_found");
      // A subscriber-only post shows a private image, a public post a public one (ADR 070): never one left readable by
      // everyone behind a lock, nor one its readers could not open.
      if (own.url.startsWith(PRIVATE_REFERENCE_PREFIX) === input.isPublic) throw new PostError(400, "image_audience");
      uploadId = own.id;
    }
    const row = await trx
      .insertInto("posts")
      .values({ author_id: authorId, content: input.content, upload_id: uploadId, is_public: input.isPublic, community_id: input.communityId ?? null })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (looksLikeOffPlatformPayment(input.content)) {
      await trx.insertInto("off_platform_flags").values({ user_id: authorId, target_type: "post", target_id: row.id }).execute();
    }
    // The author's subscribers who take it get a push (a subscriber-only post's says nothing of it).
    await enqueuePostPushes(trx, { postId: row.id, authorId, content: input.content ?? "", isPublic: input.isPublic, hasImage: uploadId !== null });
    return row.id;
  });
  return (await getPost({ db, postId: id, viewerId: authorId }))!;
}

/** A post as the viewer sees it (maybe locked), or undefined (missing, or by someone they blocked). */
export async function getPost({ db, postId, viewerId, now = new Date() }: { db: Database; postId: string; viewerId: string | null; now?: Date }) {
  const row = await postsQuery(db, viewerId, now).where("p.id", "=", postId).executeTakeFirst();
  return row ? toPost(row) : undefined;
}

/** Deletes the author's own post; anyone else's (or a missing one) is not found. Its upload stays, as a file others may have cached. */
export async function deletePost({ db, authorId, postId }: { db: Database; authorId: string; postId: string }) {
  const deleted = await db.deleteFrom("posts").where("id", "=", postId).where("author_id", "=", authorId).returning("id").executeTakeFirst();
  if (!deleted) throw new PostError(404, "post_not_found");
}

/**
 * Posts as the viewer sees them (subscriber-only ones they may not open are locked), newest first, a page at a time: everyone's (the feed), one author's (a profile), or one
 * author's with an image (the gallery), one community's (`communityId`), or those tagged with any community of a game
 * (`gameId`). The filters narrow the list; who may open what stays postsQuery's rule.
 */
export async function listPosts({
  db,
  viewerId,
  authorId,
  withImage = false,
  communityId,
  gameId,
  cursor,
  limit,
  now = new Date(),
}: {
  db: Database;
  viewerId: string | null;
  authorId?: string;
  withImage?: boolean;
  communityId?: string;
  gameId?: number;
  cursor?: string | null;
  limit: number;
  now?: Date;
}): Promise<PostPage> {
  let query = postsQuery(db, viewerId, now, { authorId })
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(limit + 1);
  if (authorId) query = query.where("p.author_id", "=", authorId);
  if (withImage) query = query.where("p.upload_id", "is not", null);
  if (communityId) query = query.where("p.community_id", "=", communityId);
  if (gameId !== undefined) query = query.where("p.community_id", "in", (eb) => eb.selectFrom("communities").select("id").where("game_id", "=", gameId));
  const after = cursor ? POST_CURSOR_PATTERN.exec(cursor) : null;
  if (after) {
    const [, ms, id] = after;
    query = query.where((eb) => eb(eb.refTuple("p.created_at", "p.id"), "<", eb.tuple(new Date(Number(ms)), id!)));
  }
  const rows = await query.execute();
  const posts = rows.slice(0, limit).map(toPost);
  return { posts, nextCursor: rows.length > limit ? cursorOf(posts[posts.length - 1]!) : null };
}
