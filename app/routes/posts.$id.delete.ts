import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireUser, safeRedirectPath } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { messages } from "~/lib/messages";
import { parseParams } from "~/lib/params";
import { uuidParam } from "~/lib/validation/fields";
import { deletePost, PostError } from "~/models/posts.server";

const paramsSchema = z.object({ id: uuidParam });

/** The delete button of a post (a plain form): the author's own post goes; anyone else's is a 404, as a missing one. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { id } = parseParams(paramsSchema, params, request);
  const user = await requireUser(request, context);
  const formData = await readFormData(request);
  try {
    await deletePost({ db: context.db, authorId: user.id, postId: id });
  } catch (error) {
    if (error instanceof PostError) throw new Response(messages.posts.notFound, { status: 404 });
    throw error;
  }
  throw await redirectWithToast(request, context.config, safeRedirectPath(formData.get("redirectTo"), "/feed"), {
    type: "success",
    title: messages.posts.deleted,
  });
}

/** Deleting is a POST; a visit to the address is not a page. */
export async function loader() {
  throw new Response(null, { status: 404 });
}
