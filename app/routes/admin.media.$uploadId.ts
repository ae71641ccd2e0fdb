import type { LoaderFunctionArgs } from "@remix-run/node";
import { deskNotFound, requireOperator } from "~/http/desk.server";
import { sendMedia } from "~/http/media.server";
import { DESK_PAGES } from "~/lib/constants/desk";
import { UUID } from "~/lib/validation/fields";
import { findReportedPicture } from "~/models/desk-targets.server";

/**
 * GET /admin/media/{uploadId}: a reported private picture (a chat picture, a subscribers' post picture) for the
 * operators who decide reports (ADR 071), through the same streaming or signed URL as /media. Anyone else, and any
 * picture no report points at, gets the 404 of an unknown path.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, DESK_PAGES.reports.roles);
  const uploadId = params.uploadId ?? "";
  const picture = UUID.test(uploadId) ? await findReportedPicture({ db: context.db, uploadId: uploadId.toLowerCase() }) : undefined;
  if (!picture) throw deskNotFound(request);
  return sendMedia(context, picture);
}
