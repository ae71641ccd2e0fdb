import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, listingErrorResponse, parseOrThrow, readJson, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { uuidParam } from "~/lib/validation/fields";
import { listingPatchSchema } from "~/lib/validation/listing";
import { getListing, updateListing } from "~/models/listings.server";

const notFound = () => apiError(404, "listing_not_found", messages.listings.listingNotFound);

/** GET /api/listings/{id} → data.listing (an archived one only for its seller). Public. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = uuidParam.safeParse(params.id);
  if (!id.success) return notFound();
  const viewer = await context.auth.getUser();
  const listing = await getListing({ db: context.db, listingId: id.data, viewerId: viewer?.id });
  return listing ? apiOk({ data: { listing } }) : notFound();
}

/** PATCH /api/listings/{id} {any listing field, status?} → data.listing. Only the seller; for others it is not found. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const id = uuidParam.safeParse(params.id);
  if (!id.success) return notFound();
  const input = parseOrThrow(listingPatchSchema, await readJson(request));
  try {
    const listing = await updateListing({ db: context.db, sellerId: user.id, listingId: id.data, input });
    return apiOk({ data: { listing } });
  } catch (error) {
    return listingErrorResponse(error);
  }
}
