import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiOk, listingErrorResponse, parseOrThrow, readJson, requireApiUser } from "~/http/api.server";
import { messages } from "~/lib/messages";
import { listingSchema, listListingsQuerySchema } from "~/lib/validation/listing";
import { createListing, listListings } from "~/models/listings.server";

/** GET /api/listings?game&sellerId&limit&offset → data.listings (active ones, newest first), data.hasMore. Public. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = parseOrThrow(listListingsQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  const viewer = await context.auth.getUser();
  const { listings, hasMore } = await listListings({ db: context.readDb, gameSlug: query.game, sellerId: query.sellerId, viewerId: viewer?.id, limit: query.limit, offset: query.offset });
  return apiOk({ data: { listings, hasMore } });
}

/** POST /api/listings {title, gameSlug, description?, pricePerUnit, minutesPerUnit, maxUnits} → 201 data.listing. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", messages.api.failed);
  const user = await requireApiUser(context);
  const input = parseOrThrow(listingSchema, await readJson(request));
  try {
    const listing = await createListing({ db: context.db, sellerId: user.id, input });
    return apiOk({ data: { listing } }, { status: 201 });
  } catch (error) {
    return listingErrorResponse(error);
  }
}
