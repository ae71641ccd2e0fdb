import { messages } from "~/lib/messages";
import { unstorableFormEntry } from "./unstorable.server";

/**
 * A form action's body. One that is not a form (another Content-Type, a broken multipart body) is a 400 like any
 * other bad input, not the 500 `request.formData()` would throw; so is one with a NUL in any entry, which the
 * database could not store whichever field it is (./unstorable.server.ts).
 */
export async function readFormData(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new Response(messages.validation.checkInput, { status: 400, statusText: "Bad Request" });
  }
  if (unstorableFormEntry(form) !== null) {
    throw new Response(messages.validation.invalidCharacters, { status: 400, statusText: "Bad Request", headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return form;
}
