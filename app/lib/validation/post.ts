import { z } from "zod";
import { POST_MAX, POSTS_LIMIT_MAX, POSTS_PAGE_SIZE, URL_MAX } from "../constants";
import { messages } from "../messages";
import { booleanParam, flag, limitParam, multiLineText, offPlatformConfirmed, redirectToField, singleLineText, slugParam, uuidParam } from "./fields";

/** A post's text (docs/product.md#validation): trimmed, at most 500 characters, line breaks kept; empty is no text. */
const postContent = multiLineText(POST_MAX, { required: false })
  .nullable()
  .optional()
  .transform((content) => content || null);

/** The community a post is tagged with (one the author belongs to; the model checks): a uuid, or none ("" or null). */
const optionalCommunityId = z
  .preprocess((value) => (value === "" ? null : value), uuidParam.nullable().optional())
  .transform((id) => id ?? null);

/**
 * A post (docs/product.md#data, #api): content or null, imageUrl (one of the author's uploads) or null, isPublic; text or an image
 * is required.
 */
export const postSchema = z
  .object({
    content: postContent,
    imageUrl: singleLineText(URL_MAX, { required: false })
      .nullable()
      .optional()
      .transform((url) => url || null),
    isPublic: flag.optional().default(true),
    communityId: optionalCommunityId,
    offPlatformConfirmed: offPlatformConfirmed(),
  })
  .refine((post) => post.content !== null || post.imageUrl !== null, { message: messages.posts.empty, path: ["content"] });
export type PostInput = z.infer<typeof postSchema>;

/** The new post page (no JavaScript): the text and 「サブスク限定」; the image comes as the multipart form's file, checked by the action. */
export const postFormSchema = z.object({
  content: postContent,
  subscribersOnly: flag.optional().default(false),
  communityId: optionalCommunityId,
  redirectTo: redirectToField,
  offPlatformConfirmed: offPlatformConfirmed(),
});

/** The new post page's `?community={slug}` preselects one of the viewer's communities. */
export const newPostQuerySchema = z.object({ community: slugParam.optional().catch(undefined) });

/** A list of posts pages by the last post's time (milliseconds) and id: `1732350000123_<uuid>`. */
export const POST_CURSOR_PATTERN = /^(\d{1,15})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
/** `?cursor=` of a list of posts (the feed, a profile, the gallery, GET /api/posts). */
export const postCursorSchema = z.string().regex(POST_CURSOR_PATTERN).optional();
export const postPageQuerySchema = z.object({ cursor: postCursorSchema });
export const listPostsQuerySchema = z.object({
  cursor: postCursorSchema,
  authorId: uuidParam.optional(),
  withImage: booleanParam,
  limit: limitParam(POSTS_LIMIT_MAX, POSTS_PAGE_SIZE),
});
