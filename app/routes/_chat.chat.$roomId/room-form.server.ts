import type { AppLoadContext } from "@remix-run/node";
import { readFormData } from "~/http/forms.server";
import { readUploadForm } from "~/http/multipart.server";
import { UPLOAD_MAX_BYTES } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { sendMessageSchema } from "~/lib/validation/chat";
import { hasSent } from "~/models/chat-sender.server";
import { acceptUpload, UploadError } from "~/models/uploads.server";

type Refusal = { error: string; status: 400 | 401 | 403 | 413 | 429 };
/** The message to send, and the picture this form stored for it (to forget if the message is refused). */
type Parsed = { message: ReturnType<typeof sendMessageSchema.parse>; storedPicture?: string } | Refusal;

/** What the room's form asks for: a message to send, one already sent (the same form posted again), or a refusal. */
export type RoomFormOutcome = Parsed | { alreadySent: true };

/** The form's fields as the schema reads them: an empty field is one not sent (an empty client id, no confirmation). */
const present = (entries: Iterable<[string, FormDataEntryValue]>): Record<string, string> =>
  Object.fromEntries([...entries].filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== ""));

/**
 * Reads the room's plain form (docs/product.md#chat), which works without JavaScript: a text, or, when it carries a
 * picture (multipart, the `file` field), the picture stored through the upload pipeline (kind chat: private, judged
 * by its bytes, re-encoded, rate-limited) and the text as its caption, in the same request. A form posted again
 * after a lost answer (its client id already stored, ADR 051) stores nothing more, not even the picture.
 */
export async function readRoomForm(args: { request: Request; context: AppLoadContext; userId: string; roomId: string }): Promise<RoomFormOutcome> {
  try {
    return await readForm(args);
  } catch (error) {
    // The body over its limit, or the picture refused by the pipeline: said as the uploads route says it.
    if (error instanceof UploadError) return { error: error.message, status: error.status };
    throw error;
  }
}

async function readForm({ request, context, userId, roomId }: { request: Request; context: AppLoadContext; userId: string; roomId: string }): Promise<RoomFormOutcome> {
  if (!/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) return parsed({ ...present((await readFormData(request)).entries()), roomId });
  const form = await readUploadForm(request, { maxFileBytes: UPLOAD_MAX_BYTES });
  const fields: Record<string, string> = { ...present(form.fields.entries()), roomId };
  if (!form.file) return parsed(fields);
  const { content: caption, ...rest } = fields;
  // The caption's and the client id's rules are checked before the picture is stored, so a refusal stores nothing.
  const precheck = parsed({ ...rest, messageType: "IMAGE", content: crypto.randomUUID(), metadata: { caption } });
  if ("error" in precheck) return precheck;
  if (precheck.message.clientId && (await hasSent(context.db, { senderId: userId, clientId: precheck.message.clientId }))) return { alreadySent: true };
  const picture = await acceptUpload({ db: context.db, storage: context.storage, userId, kind: "chat", bytes: form.file.bytes });
  return { message: { ...precheck.message, content: picture.id }, storedPicture: picture.id };
}

function parsed(input: Record<string, unknown>): Parsed {
  const result = sendMessageSchema.safeParse(input);
  if (!result.success) return { error: result.error.issues[0]?.message ?? messages.validation.checkInput, status: 400 };
  return { message: result.data };
}
