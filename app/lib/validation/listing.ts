import { z } from "zod";
import { GAME_SLUG_MAX, LISTING_DESCRIPTION_MAX, LISTING_MAX_UNITS, LISTING_MINUTES, LISTING_PRICE_MIN, LISTING_TITLE_MAX, LISTINGS_LIMIT_MAX, LISTINGS_PAGE_SIZE } from "../constants";
import { messages } from "../messages";
import { coinStep, limitParam, multiLineText, offsetParam, singleLineText, uuidParam, wholeNumber } from "./fields";

export const unitsField = wholeNumber.pipe(z.number().min(1, messages.validation.checkInput).max(LISTING_MAX_UNITS, messages.bookings.tooManyUnits(LISTING_MAX_UNITS)));

/** A listing as registered at /mypage/ticket-registration and POST /api/listings (docs/product.md#data). */
export const listingSchema = z.object({
  title: singleLineText(LISTING_TITLE_MAX),
  gameSlug: singleLineText(GAME_SLUG_MAX, { required: messages.validation.selectRequired }),
  description: multiLineText(LISTING_DESCRIPTION_MAX, { required: false }).optional().default(""),
  pricePerUnit: coinStep(LISTING_PRICE_MIN),
  minutesPerUnit: wholeNumber.refine((value) => (LISTING_MINUTES as readonly number[]).includes(value), messages.validation.invalidChoice),
  maxUnits: unitsField,
});
export type ListingInput = z.infer<typeof listingSchema>;

export const listingStatusSchema = z.enum(["active", "paused", "archived"], { errorMap: () => ({ message: messages.validation.invalidChoice }) });

/** The status buttons of a listing on the registration page: pause, resume, archive. */
export const listingStatusFormSchema = z.object({ listingId: uuidParam, status: listingStatusSchema });

/** PATCH /api/listings/{id}: any of the listing's fields, and its status. */
export const listingPatchSchema = listingSchema.partial().extend({ status: listingStatusSchema.optional() });

/** GET /api/listings and the listing list (/tickets). */
export const listListingsQuerySchema = z.object({
  game: singleLineText(GAME_SLUG_MAX, { required: false }).optional(),
  sellerId: uuidParam.optional(),
  limit: limitParam(LISTINGS_LIMIT_MAX, LISTINGS_PAGE_SIZE),
  offset: offsetParam,
});

/** POST /api/tickets/{id}/extend. */
export const extendSchema = z.object({ units: unitsField });
