import type { LoaderFunctionArgs } from "@remix-run/node";
import { serveMedia } from "~/http/media.server";

/** GET /media/{uploadId}: a private picture (a chat image) in full, to who may see it, else 404 (ADR 069). */
export const loader = (args: LoaderFunctionArgs) => serveMedia(args, "full");
