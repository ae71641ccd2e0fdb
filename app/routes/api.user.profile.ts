import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, readJson, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { profileSchema } from "~/lib/validation/profile";
import { saveProfile, UnknownGameError } from "~/models/user.server";

/** POST /api/user/profile: creates or updates the caller's profile (docs/product.md#api). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const parsed = profileSchema.safeParse(await readJson(request));
  if (!parsed.success) {
    return apiError(400, "invalid_input", messages.validation.checkInput, parsed.error.flatten().fieldErrors);
  }
  try {
    const { profile, created } = await saveProfile({ db: context.db, realtime: context.realtime, userId: user.id, email: user.email, input: parsed.data });
    return apiOk({ data: { user: { ...profile, email: user.email } } }, { status: created ? 201 : 200 });
  } catch (error) {
    if (error instanceof UnknownGameError) return apiError(400, "unknown_game", messages.validation.unknownGame);
    throw error;
  }
}
