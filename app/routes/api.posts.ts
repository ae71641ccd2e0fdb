import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiOk } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { listPostsQuerySchema } from "~/lib/validation/post";
import { listPosts } from "~/models/posts.server";

/**
 * GET /api/posts?authorId&withImage&cursor&limit → `{success, data: {posts, nextCursor}}`: the posts the caller may
 * see, newest first (signed out: public ones). The feed, a profile and its gallery page the same way.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = listPostsQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiError(400, "invalid_input", messages.validation.checkInput);
  const viewer = await context.auth.getUser();
  const { authorId, withImage, cursor, limit } = query.data;
  const page = await listPosts({ db: context.readDb, viewerId: viewer?.id ?? null, authorId, withImage, cursor, limit });
  return apiOk({ data: page });
}
