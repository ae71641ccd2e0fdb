import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { UPLOAD_FIELD_MAX_BYTES, UPLOAD_FORM_MAX_FIELDS, UPLOAD_FORM_OVERHEAD_BYTES } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { UploadError } from "~/models/uploads.server";
import { isUnstorableText } from "./unstorable.server";

export interface UploadForm {
  /** The text fields (the first value of each name). */
  fields: Map<string, string>;
  /** The one file part, or null when the form had none (or an empty one). */
  file: { bytes: Uint8Array; filename: string } | null;
}

const tooLarge = () => new UploadError(413, messages.uploads.tooLarge);
const broken = () => new UploadError(400, messages.validation.checkInput);
const unstorable = () => new UploadError(400, messages.validation.invalidCharacters);

/**
 * Reads a multipart form with one file (the part named `fileField`, "file" by default) without ever holding more
 * than the limits in memory: a Content-Length beyond the file limit plus the form's overhead is refused before a
 * byte is read; otherwise the body is counted as it streams and reading stops as soon as the file passes
 * `maxFileBytes` (or the whole body its ceiling, or a text field UPLOAD_FIELD_MAX_BYTES): UploadError 413. A body
 * that is not a well-formed multipart form, a second file or too many fields: UploadError 400.
 */
export async function readUploadForm(
  request: Request,
  { maxFileBytes, fileField = "file" }: { maxFileBytes: number; fileField?: string },
): Promise<UploadForm> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType) || !request.body) throw broken();
  const ceiling = maxFileBytes + UPLOAD_FORM_OVERHEAD_BYTES;
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  if (declared > ceiling) throw tooLarge();

  // Whatever the parser does with a body that never shows its boundary, it sees at most `ceiling` bytes.
  let total = 0;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > ceiling) throw tooLarge();
        controller.enqueue(chunk);
      },
    }),
  );
  const limited = new Request(request.url, { method: "POST", headers: request.headers, body: counted, duplex: "half" } as RequestInit);

  const fields = new Map<string, string>();
  let file: UploadForm["file"] = null;
  let parts = 0;
  const handler: UploadHandler = async ({ name, filename, data }) => {
    if (++parts > UPLOAD_FORM_MAX_FIELDS) throw broken();
    const isFile = name === fileField;
    if (isUnstorableText(name) || isUnstorableText(filename ?? "")) throw unstorable();
    if (isFile && file) throw broken();
    if (!isFile && typeof filename === "string" && filename !== "") throw broken();
    const limit = isFile ? maxFileBytes : UPLOAD_FIELD_MAX_BYTES;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of data) {
      size += chunk.byteLength;
      // A file beyond its limit is too large; a text field beyond its few KB is not a text field of ours.
      if (size > limit) throw isFile ? tooLarge() : broken();
      chunks.push(chunk);
    }
    const bytes = concat(chunks, size);
    if (isFile) {
      if (size > 0) file = { bytes, filename: filename ?? "" };
    } else {
      const text = new TextDecoder().decode(bytes);
      if (isUnstorableText(text)) throw unstorable();
      if (!fields.has(name)) fields.set(name, text);
    }
    return undefined;
  };

  try {
    await unstable_parseMultipartFormData(limited, handler);
  } catch (error) {
    if (error instanceof UploadError) throw error;
    // The counting stream's 413 arrives wrapped by the parser, or as the stream's own error.
    if (total > ceiling) throw tooLarge();
    throw broken();
  }
  return { fields, file };
}

function concat(chunks: Uint8Array[], size: number) {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
