import { messages } from "~/lib/messages";

/**
 * A form action's body. One that is not a form (another Content-Type, a broken multipart body) is a 400 like any
 * other bad input, not the 500 `request.formData()` would throw.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Response(messages.validation.checkInput, { status: 400, statusText: "Bad Request" });
  }
}
