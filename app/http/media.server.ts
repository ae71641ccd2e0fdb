import fs from "node:fs";
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { localPrivateFile } from "~/infra/storage";
import { MEDIA_CACHE_MAX_AGE_SECONDS, MEDIA_SIGNED_URL_SECONDS } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { UUID } from "~/lib/validation/fields";
import { findViewableMedia, type MediaSize } from "~/models/media.server";

/** Not there, not yours: one answer for both, which says nothing about the picture (never 403). Never stored by anyone. */
const notFound = () =>
  new Response(messages.api.notFound, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });

/**
 * GET /media/{uploadId}[/small] (ADR 069): a private picture, to who may see it (app/models/media.server.ts), else 404.
 * On the local disk the app streams the file (`Cache-Control: private`, nosniff); on an object store it redirects to a
 * short-lived signed URL, the redirect itself never cached (the next view asks again, and is checked again).
 */
export async function serveMedia({ params, context }: Pick<LoaderFunctionArgs, "params" | "context">, size: MediaSize) {
  const uploadId = params.uploadId ?? "";
  if (!UUID.test(uploadId)) return notFound();
  const viewer = await context.auth.getUser();
  if (!viewer) return notFound();
  const media = await findViewableMedia({ db: context.db, viewerId: viewer.id, uploadId: uploadId.toLowerCase(), size });
  return media ? sendMedia(context, media) : notFound();
}

/**
 * A private picture someone was found allowed to see: streamed from the local disk (`Cache-Control: private`), or a
 * redirect to a short-lived signed URL on an object store, the redirect itself never cached. The operators' desk
 * sends its reported pictures through here too (ADR 071).
 */
export async function sendMedia(context: Pick<LoaderFunctionArgs["context"], "storage" | "config">, media: { reference: string; contentType: string }) {
  const signed = await context.storage.signedUrl(media.reference, { expiresInSeconds: MEDIA_SIGNED_URL_SECONDS });
  if (signed) return new Response(null, { status: 302, headers: { Location: signed, "Cache-Control": "private, no-store" } });
  const file = localPrivateFile(context.config, media.reference);
  if (!file) return notFound();
  let stat;
  try {
    stat = await fs.promises.stat(file);
  } catch {
    return notFound();
  }
  return new Response(createReadableStreamFromReadable(fs.createReadStream(file)), {
    headers: {
      "Content-Type": media.contentType,
      "Content-Length": String(stat.size),
      // X-Content-Type-Options: nosniff is on every answer already (server/security.ts).
      "Cache-Control": `private, max-age=${MEDIA_CACHE_MAX_AGE_SECONDS}`,
    },
  });
}
