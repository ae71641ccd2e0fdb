import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, postErrorResponse, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { uuidParam } from "~/lib/validation/fields";
import { deletePost, getPost } from "~/models/posts.server";

const notFound = () => apiError(404, "post_not_found", messages.posts.notFound);

/** GET /api/posts/{id}: one post the caller may see; anything else is not found. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = uuidParam.safeParse(params.id);
  if (!id.success) return notFound();
  const viewer = await context.auth.getUser();
  const post = await getPost({ db: context.db, postId: id.data, viewerId: viewer?.id ?? null });
  return post ? apiOk({ post }) : notFound();
}

/** DELETE /api/posts/{id}: the author deletes their post; someone else's is not found (404), as a missing one. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const id = uuidParam.safeParse(params.id);
  if (!id.success) return notFound();
  try {
    await deletePost({ db: context.db, authorId: user.id, postId: id.data });
    return apiOk({});
  } catch (error) {
    return postErrorResponse(error);
  }
}
