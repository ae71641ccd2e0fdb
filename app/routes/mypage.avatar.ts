import type { ActionFunctionArgs } from "@remix-run/node";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { readUploadForm } from "~/http/multipart.server";
import { redirectWithToast } from "~/http/toast.server";
import { UPLOAD_MAX_BYTES } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { acceptUpload, UploadError } from "~/models/uploads.server";
import { setAvatar } from "~/models/user.server";

const BACK = "/mypage/gamer-edit";

/**
 * The avatar forms of /mypage/gamer-edit (plain forms): a multipart one uploads a new picture (type avatar: square,
 * re-encoded, through the same rules as POST /api/uploads), a plain one with `intent=remove` takes it away. Either
 * way back to the page with a toast, which also carries a refusal's reason.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const toast = (type: "success" | "error", title: string) => redirectWithToast(request, context.config, BACK, { type, title });
  if (!/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    const form = await readFormData(request).catch(() => null);
    if (form?.get("intent") !== "remove") throw await toast("error", messages.validation.checkInput);
    await setAvatar({ db: context.db, userId: user.id, avatarUrl: null });
    throw await toast("success", messages.profile.avatarRemoved);
  }
  try {
    const form = await readUploadForm(request, { maxFileBytes: UPLOAD_MAX_BYTES, fileField: "avatar" });
    if (!form.file) throw new UploadError(400, messages.uploads.fileRequired);
    const image = await acceptUpload({ db: context.db, storage: context.storage, userId: user.id, kind: "avatar", bytes: form.file.bytes });
    await setAvatar({ db: context.db, userId: user.id, avatarUrl: image.url });
  } catch (error) {
    if (error instanceof UploadError) throw await toast("error", error.message);
    throw error;
  }
  throw await toast("success", messages.profile.avatarSaved);
}

/** The forms post here; a visit goes to the page they are on. */
export async function loader() {
  return new Response(null, { status: 302, headers: { Location: BACK } });
}
