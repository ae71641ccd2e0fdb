import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiError, apiOk, requireApiUser } from "~/http/api.server";
import { readUploadForm } from "~/http/multipart.server";
import { UPLOAD_KINDS, UPLOAD_MAX_BYTES } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { mediaPath } from "~/lib/paths";
import { flag } from "~/lib/validation/fields";
import { acceptUpload, UploadError } from "~/models/uploads.server";

const uploadTypeSchema = z.enum(UPLOAD_KINDS, { errorMap: () => ({ message: messages.validation.invalidChoice }) });

const codes = { 400: "invalid_image", 401: "unauthorized", 403: "profile_required", 413: "too_large", 429: "rate_limited" } as const;

/**
 * POST /api/uploads (multipart: file, type post|avatar|chat, subscribersOnly) → 201 data.id, url, width, height
 * (docs/product.md#api). A chat picture is private: its url is /media/{id}, and it is sent as an image message's content
 * by its id. So is a post image with `subscribersOnly=true`, for a subscriber-only post (ADR 070).
 * Anonymous callers get their 401 before a byte of the body is read.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.validation.checkInput);
  const user = await requireApiUser(context);
  let form;
  try {
    form = await readUploadForm(request, { maxFileBytes: UPLOAD_MAX_BYTES });
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    // The rest of the body is read and dropped after this answer, or the connection closed gently (ADR 033).
    return apiError(error.status, codes[error.status], error.message);
  }
  const type = uploadTypeSchema.safeParse(form.fields.get("type"));
  if (!type.success) return apiError(400, "invalid_input", messages.validation.checkInput, { type: [messages.validation.invalidChoice] });
  const subscribersOnly = flag.optional().default(false).safeParse(form.fields.get("subscribersOnly") ?? undefined);
  if (!subscribersOnly.success) return apiError(400, "invalid_input", messages.validation.checkInput, { subscribersOnly: [messages.validation.invalidChoice] });
  if (!form.file) return apiError(400, "invalid_input", messages.validation.checkInput, { file: [messages.uploads.fileRequired] });
  try {
    const image = await acceptUpload({
      db: context.db,
      storage: context.storage,
      userId: user.id,
      kind: type.data,
      bytes: form.file.bytes,
      subscribersOnly: subscribersOnly.data,
    });
    const url = image.isPrivate ? mediaPath(image.id) : image.url;
    return apiOk({ data: { id: image.id, url, width: image.width, height: image.height } }, { status: 201 });
  } catch (error) {
    if (error instanceof UploadError) return apiError(error.status, codes[error.status], error.message);
    throw error;
  }
}
