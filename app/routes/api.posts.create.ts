import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, parseOrThrow, postErrorResponse, readJson, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { postSchema } from "~/lib/validation/post";
import { createPost } from "~/models/posts.server";

/**
 * POST /api/posts/create {content | null, imageUrl | null, isPublic} → 201 `{success, post}` (docs/product.md#api): text or an
 * image (one of the caller's uploads, type post), at most five posts a minute.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const input = parseOrThrow(postSchema, await readJson(request));
  try {
    const post = await createPost({ db: context.db, authorId: user.id, input });
    return apiOk({ post }, { status: 201 });
  } catch (error) {
    return postErrorResponse(error);
  }
}
