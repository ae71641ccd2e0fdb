import type { LoaderFunctionArgs } from "@remix-run/node";
import { serveMedia } from "~/http/media.server";

/** GET /media/{uploadId}/small: a private picture's thumbnail (480 px wide at most), to who may see it, else 404 (ADR 069). */
export const loader = (args: LoaderFunctionArgs) => serveMedia(args, "small");
