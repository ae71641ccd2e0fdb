import { z } from "zod";
import {
  SUBSCRIPTIONS_LIST_MAX,
  USER_COMMUNITIES_MAX,
  SUBSCRIPTION_DESCRIPTION_MAX,
  SUBSCRIPTION_PRICE_MIN,
  POST_MAX,
  COMMUNITY_SLUG_MAX,
  POSTS_LIMIT_MAX,
  POSTS_PAGE_SIZE,
  BIO_MAX,
  REVIEW_COMMENT_MAX,
  REVIEW_TIP_MIN,
  COIN_SLIDER_STEPS,
  LISTING_DESCRIPTION_MAX,
  LISTING_MAX_UNITS,
  LISTING_MINUTES,
  LISTING_PRICE_MIN,
  LISTING_TITLE_MAX,
  LISTINGS_LIMIT_MAX,
  LISTINGS_PAGE_SIZE,
  COIN_HISTORY_LIMIT_MAX,
  COIN_HISTORY_PAGE_SIZE,
  CHAT_GROUP_MAX_PARTICIPANTS,
  CHAT_MESSAGE_MAX,
  CHAT_ROOM_NAME_MAX,
  CHAT_ROOMS_PAGE_SIZE,
  DISPLAY_NAME_MAX,
  EMAIL_MAX,
  GAME_SLUG_MAX,
  JSON_DEPTH_MAX,
  GAME_RANK_MAX,
  INQUIRY_BODY_MAX,
  INQUIRY_CATEGORIES,
  INQUIRY_NAME_MAX,
  NOTIFICATIONS_LIMIT_MAX,
  NOTIFICATIONS_PAGE_SIZE,
  PASSWORD_INPUT_MAX,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PAGE_NUMBER_MAX,
  PROFILE_GAMES_MAX,
  QUERY_OFFSET_MAX,
  REDIRECT_TO_MAX,
  STRIPE_ID_MAX,
  URL_MAX,
  type InquiryCategory,
} from "./constants";
import { messages } from "./messages";

/** Zod schemas shared by form actions, JSON routes and the browser (Conform validates with the same ones). */

/**
 * What text the product stores (ADR 014): no C0 control characters (tab and newline only in multi-line text), no DEL
 * or C1 controls, no lone surrogates, and NFC. PostgreSQL text cannot hold U+0000; the rest is invisible, breaks the
 * layout or is not Unicode at all. Everything else (emoji, any script) is welcome.
 */
const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]/;
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// No lookbehind and no `u` flag, so it runs in every browser Conform runs in: a high surrogate not followed by a low
// one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string holds only characters the product stores (after normalisation). */
export function isStorableText(value: string, { multiLine = false }: { multiLine?: boolean } = {}) {
  return !LONE_SURROGATE.test(value) && !(multiLine ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(value);
}

/**
 * Whether a JSON value (user_metadata) can be stored as jsonb: every string in it, keys included, is storable
 * multi-line text (jsonb cannot hold U+0000 or a lone surrogate either), nested at most JSON_DEPTH_MAX deep.
 */
export function isStorableJson(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return isStorableText(value, { multiLine: true });
  if (value === null || typeof value !== "object") return true;
  if (depth >= JSON_DEPTH_MAX) return false;
  if (Array.isArray(value)) return value.every((item) => isStorableJson(item, depth + 1));
  return Object.entries(value).every(([key, item]) => isStorableText(key, { multiLine: true }) && isStorableJson(item, depth + 1));
}

/** NFC, and for multi-line text the CRLF (or CR) a browser submits for a textarea's line breaks as one LF. */
const normalizeText = (multiLine: boolean) => (value: unknown) => {
  if (typeof value !== "string") return value;
  const nfc = value.normalize("NFC");
  return multiLine ? nfc.replace(/\r\n?/g, "\n") : nfc;
};

interface TextOptions {
  /** Empty (after trimming) is refused with this message; pass `false` for an optional field. */
  required?: string | false;
}

/** A string schema wrapped so its input is normalised first and stored-text rules hold after trimming. */
function storableText<Schema extends z.ZodString>(schema: Schema, multiLine: boolean) {
  return z
    .preprocess(normalizeText(multiLine), schema)
    .refine((value) => isStorableText(value, { multiLine }), messages.validation.invalidCharacters);
}

function sizedText(max: number, { required = messages.validation.required }: TextOptions) {
  const base = z
    .string({ required_error: required || messages.validation.required, invalid_type_error: messages.validation.checkInput })
    .trim();
  return (required ? base.min(1, required) : base).max(max, messages.validation.maxLength(max));
}

/** One line of text (a name, a title, a rank): trimmed, at most `max` UTF-16 units, no line breaks or tabs. */
export const singleLineText = (max: number, options: TextOptions = {}) => storableText(sizedText(max, options), false);

/** Text that may span lines (a message, a bio, an inquiry): as singleLineText, plus newlines (CRLF → LF) and tabs. */
export const multiLineText = (max: number, options: TextOptions = {}) => storableText(sizedText(max, options), true);

/** An email address as typed into a form: trimmed, required, at most 254 characters. */
export const emailText = () =>
  storableText(
    z
      .string({ required_error: messages.validation.required, invalid_type_error: messages.validation.checkInput })
      .trim()
      .min(1, messages.validation.required)
      .max(EMAIL_MAX, messages.validation.maxLength(EMAIL_MAX))
      .email(messages.validation.email),
    false,
  );

/**
 * A path to return to after a form (a hidden `redirectTo`): one line; whether it is a safe same-origin path is
 * decided where it is used (safeRedirectPath).
 */
export const redirectToField = singleLineText(REDIRECT_TO_MAX, { required: false }).optional();

const categoryValues = INQUIRY_CATEGORIES.map((category) => category.value) as [InquiryCategory, ...InquiryCategory[]];

export const inquirySchema = z.object({
  name: singleLineText(INQUIRY_NAME_MAX),
  email: emailText(),
  category: z.enum(categoryValues, {
    errorMap: (issue) => ({
      message:
        issue.code === "invalid_type" && issue.received === "undefined"
          ? messages.validation.selectRequired
          : messages.validation.invalidChoice,
    }),
  }),
  body: multiLineText(INQUIRY_BODY_MAX),
});
export type InquiryInput = z.infer<typeof inquirySchema>;

export const loginSchema = z.object({
  email: emailText(),
  // Passwords are never stored as text (only their scrypt hash, of the NFKC form), so any characters will do.
  password: z
    .string({ required_error: messages.validation.required, invalid_type_error: messages.validation.checkInput })
    .min(1, messages.validation.required)
    .max(PASSWORD_INPUT_MAX, messages.validation.maxLength(PASSWORD_INPUT_MAX)),
  redirectTo: redirectToField,
});

export const signupSchema = loginSchema.extend({
  password: z
    .string({ required_error: messages.validation.required, invalid_type_error: messages.validation.checkInput })
    .min(PASSWORD_MIN_LENGTH, messages.auth.passwordTooShort(PASSWORD_MIN_LENGTH))
    .max(PASSWORD_MAX_LENGTH, messages.validation.maxLength(PASSWORD_MAX_LENGTH)),
});

/** Which sessions a sign-out ends: this one (the default) or every device's (supabase-js `signOut({ scope })`). */
export const signOutScopeSchema = z.enum(["local", "global"]).default("local");

/** A profile (POST /api/user/profile and /mypage/gamer-edit). Games are the ones ticked, each with an optional rank. */
export const profileSchema = z.object({
  displayName: singleLineText(DISPLAY_NAME_MAX),
  bio: multiLineText(BIO_MAX, { required: false }).optional().default(""),
  // An uploaded avatar (`/uploads/avatar/…`, or the storage bucket's https URL); null removes it, absent keeps it.
  avatarUrl: storableText(z.string().trim().max(URL_MAX, messages.validation.maxLength(URL_MAX)), false)
    .refine((url) => /^https?:\/\/[^\s]+$/.test(url) || /^\/uploads\/[\w./-]+$/.test(url), messages.validation.url)
    .nullable()
    .optional(),
  games: z
    .array(
      z
        .object({
          slug: singleLineText(GAME_SLUG_MAX, { required: false }).optional(),
          rank: singleLineText(GAME_RANK_MAX, { required: false }).optional(),
        })
        .optional(),
    )
    .optional()
    .transform((games) =>
      (games ?? [])
        .filter((game): game is { slug: string; rank?: string } => !!game?.slug)
        .map((game) => ({ slug: game.slug, rank: game.rank ?? "" })),
    )
    .refine((games) => games.length <= PROFILE_GAMES_MAX, messages.validation.tooMany(PROFILE_GAMES_MAX))
    .refine((games) => new Set(games.map((game) => game.slug)).size === games.length, messages.validation.checkInput),
});
export type ProfileInput = z.infer<typeof profileSchema>;

const uuid = z.string().uuid(messages.validation.checkInput);

/**
 * The sender answered the off-platform payment warning with 「このまま送信する」 (PRODUCT §10): a JSON boolean, or the
 * plain form's hidden field. Optional: without it, the plain forms show the warning page first; the API and the socket
 * store and count the text either way.
 */
const offPlatformConfirmed = () => z.union([z.boolean(), z.enum(["true", "on"]).transform(() => true)]).optional();

export const sendMessageSchema = z.object({
  roomId: uuid,
  content: multiLineText(CHAT_MESSAGE_MAX, { required: messages.chat.emptyMessage }),
  // People send text; ticket and system messages are posted by the app itself.
  messageType: z.literal("TEXT").optional().default("TEXT"),
  metadata: z
    .object({ caption: multiLineText(CHAT_MESSAGE_MAX, { required: false }).nullable().optional() })
    .nullable()
    .optional()
    .default(null),
  offPlatformConfirmed: offPlatformConfirmed(),
  /** Made by the sender's app (or the plain form's page) for this message: a retry with it is stored once (ADR 051). */
  clientId: uuid.transform((id) => id.toLowerCase()).optional(),
});

export const createRoomSchema = z.object({
  participantIds: z.array(uuid).min(1).max(CHAT_GROUP_MAX_PARTICIPANTS),
  type: z.enum(["DIRECT", "GROUP"]).optional().default("DIRECT"),
  name: singleLineText(CHAT_ROOM_NAME_MAX, { required: false }).nullable().optional().default(null),
});

/**
 * A whole number from a query string, within bounds: letters, fractions, `1e400` or 2^64 are a 400 here rather than
 * an error from the database.
 */
const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
/** `?limit=n`: a whole number from 1; more than the list's maximum gets the maximum (issue 37: no list is unbounded). */
const limitParam = (max: number, fallback: number) =>
  queryInt(1, Number.MAX_SAFE_INTEGER)
    .transform((limit) => Math.min(limit, max))
    .optional()
    .default(fallback);
const offsetParam = queryInt(0, QUERY_OFFSET_MAX).optional().default(0);

/** `?page=n` of the paged HTML lists (notifications, chat rooms, coin history); absent is the first page. */
export const pageQuerySchema = z.object({ page: queryInt(0, PAGE_NUMBER_MAX).optional().default(0) });

/** GET /api/user/subscriptions and /api/user/communities: `?limit`, their maximum by default. */
export const subscriptionsQuerySchema = z.object({ limit: limitParam(SUBSCRIPTIONS_LIST_MAX, SUBSCRIPTIONS_LIST_MAX) });
export const userCommunitiesQuerySchema = z.object({ limit: limitParam(USER_COMMUNITIES_MAX, USER_COMMUNITIES_MAX) });

export const listRoomsQuerySchema = z.object({
  limit: limitParam(CHAT_ROOMS_PAGE_SIZE, CHAT_ROOMS_PAGE_SIZE),
  offset: offsetParam,
});

/** A message id to page back from (ids are bigint; beyond the safe integers none exists). */
const beforeParam = queryInt(1, Number.MAX_SAFE_INTEGER).optional();

export const listMessagesQuerySchema = z.object({
  roomId: uuid,
  before: beforeParam,
});

/** `?before=id` of the chat room page. */
export const roomPageQuerySchema = z.object({ before: beforeParam });

export const uuidParam = uuid;

/** A query flag: `true`/`1` is on; absent, `false` or `0` is off; anything else is invalid input. */
const booleanParam = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((value) => value === "true" || value === "1");

/** GET /api/notifications (SPEC §7): a page, unread first when asked; or just the unread count. */
export const listNotificationsQuerySchema = z.object({
  limit: limitParam(NOTIFICATIONS_LIMIT_MAX, NOTIFICATIONS_PAGE_SIZE),
  offset: offsetParam,
  prioritizeUnread: booleanParam,
  countOnly: booleanParam,
});

/** A coin package id: a whole number, in JSON or a form field (PRODUCT §4: 1–7). */
export const packageIdSchema = z.union([z.number(), z.string().trim().regex(/^\d{1,9}$/).transform(Number)]).pipe(z.number().int().positive());

/** POST /api/coins/orders {packageId}. */
export const coinOrderSchema = z.object({ packageId: packageIdSchema });

/**
 * An idempotency key (the Idempotency-Key header, or the hidden field a checkout form is rendered with): visible
 * ASCII, at most 255 characters, as Stripe's.
 */
export const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{8,255}$/, messages.validation.checkInput);

/** The checkout form: the key it was rendered with. */
export const checkoutFormSchema = z.object({ idempotencyKey: idempotencyKeySchema });

/** GET /api/coins/history and /settings/coin-history. */
export const coinHistoryQuerySchema = z.object({
  limit: limitParam(COIN_HISTORY_LIMIT_MAX, COIN_HISTORY_PAGE_SIZE),
  offset: offsetParam,
});

/**
 * A verified Stripe event, as far as the app reads it (POST /api/webhooks/stripe): the ids and type are stored, so
 * they are text like any other; a signed event of another shape is refused, not half-handled.
 */
export const paymentEventSchema = z.object({
  id: singleLineText(STRIPE_ID_MAX),
  type: singleLineText(STRIPE_ID_MAX),
  data: z.object({
    object: z
      .object({
        id: singleLineText(STRIPE_ID_MAX),
        payment_status: singleLineText(STRIPE_ID_MAX, { required: false }).optional(),
        metadata: z.record(z.string(), z.unknown()).nullable().optional(),
      })
      .passthrough(),
  }),
});

/** A whole number sent as JSON or as a form field's text. */
export const wholeNumber = z
  .union([z.number(), z.string().trim().regex(/^-?\d{1,9}$/, messages.validation.checkInput).transform(Number)], {
    errorMap: () => ({ message: messages.validation.checkInput }),
  })
  .pipe(z.number({ invalid_type_error: messages.validation.checkInput }).int(messages.validation.checkInput));

/** An amount chosen with the coin slider (SPEC §5): one of its steps, at least `min`. */
export const coinStep = (min: number, max = COIN_SLIDER_STEPS[COIN_SLIDER_STEPS.length - 1]) =>
  wholeNumber.refine((value) => (COIN_SLIDER_STEPS as readonly number[]).includes(value) && value >= min && value <= max, messages.validation.invalidChoice);

export const unitsField = wholeNumber.pipe(z.number().min(1, messages.validation.checkInput).max(LISTING_MAX_UNITS, messages.tickets.tooManyUnits(LISTING_MAX_UNITS)));

/** A listing as registered at /mypage/ticket-registration and POST /api/listings (PRODUCT §4). */
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
export const listingStatusFormSchema = z.object({ listingId: uuid, status: listingStatusSchema });

/** PATCH /api/listings/{id}: any of the listing's fields, and its status. */
export const listingPatchSchema = listingSchema.partial().extend({ status: listingStatusSchema.optional() });

/** GET /api/listings and the ticket list. */
export const listListingsQuerySchema = z.object({
  game: singleLineText(GAME_SLUG_MAX, { required: false }).optional(),
  sellerId: uuid.optional(),
  limit: limitParam(LISTINGS_LIMIT_MAX, LISTINGS_PAGE_SIZE),
  offset: offsetParam,
});

/** POST /api/tickets/{id}/extend. */
export const extendSchema = z.object({ units: unitsField });

/**
 * A review (SPEC §3, §5): the booking, 1–5 stars, an optional comment (trimmed, at most 500 characters) and, for the
 * buyer, a tip chosen with the coin slider from 0. The dialog, the page and POST /api/reviews share it.
 */
export const reviewSchema = z.object({
  bookingId: uuid,
  rating: z
    .union([z.number(), z.string().trim().regex(/^\d$/, messages.reviews.ratingRequired).transform(Number)], {
      errorMap: () => ({ message: messages.reviews.ratingRequired }),
    })
    .pipe(z.number().int(messages.reviews.ratingRequired).min(1, messages.reviews.ratingRequired).max(5, messages.reviews.ratingRequired)),
  comment: multiLineText(REVIEW_COMMENT_MAX, { required: false })
    .nullable()
    .optional()
    .transform((comment) => comment ?? ""),
  tipAmount: coinStep(REVIEW_TIP_MIN).optional().default(0),
});
export type ReviewInput = z.infer<typeof reviewSchema>;

/** A post's text (SPEC §5): trimmed, at most 500 characters, line breaks kept; empty is no text. */
const postContent = multiLineText(POST_MAX, { required: false })
  .nullable()
  .optional()
  .transform((content) => content || null);

/** A form's checkbox or a JSON boolean. */
const flag = z.union([z.boolean(), z.enum(["true", "on"]).transform(() => true), z.literal("false").transform(() => false)]);

/** The community a post is tagged with (one the author belongs to; the model checks): a uuid, or none ("" or null). */
const optionalCommunityId = z
  .preprocess((value) => (value === "" ? null : value), uuid.nullable().optional())
  .transform((id) => id ?? null);

/**
 * A post (SPEC §3, §7): content or null, imageUrl (one of the author's uploads) or null, isPublic; text or an image
 * is required.
 */
export const postSchema = z
  .object({
    content: postContent,
    imageUrl: singleLineText(URL_MAX, { required: false })
      .nullable()
      .optional()
      .transform((url) => url || null),
    isPublic: flag.optional().default(true),
    communityId: optionalCommunityId,
    offPlatformConfirmed: offPlatformConfirmed(),
  })
  .refine((post) => post.content !== null || post.imageUrl !== null, { message: messages.posts.empty, path: ["content"] });
export type PostInput = z.infer<typeof postSchema>;

/** The new post page (no JavaScript): the text and 「サブスク限定」; the image comes as the multipart form's file, checked by the action. */
export const postFormSchema = z.object({
  content: postContent,
  subscribersOnly: flag.optional().default(false),
  communityId: optionalCommunityId,
  redirectTo: redirectToField,
  offPlatformConfirmed: offPlatformConfirmed(),
});

/** A list of posts pages by the last post's time (milliseconds) and id: `1732350000123_<uuid>`. */
export const POST_CURSOR_PATTERN = /^(\d{1,15})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
/** `?cursor=` of a list of posts (the feed, a profile, the gallery, GET /api/posts). */
export const postCursorSchema = z.string().regex(POST_CURSOR_PATTERN).optional();
export const postPageQuerySchema = z.object({ cursor: postCursorSchema });
export const listPostsQuerySchema = z.object({
  cursor: postCursorSchema,
  authorId: uuid.optional(),
  withImage: booleanParam,
  limit: limitParam(POSTS_LIMIT_MAX, POSTS_PAGE_SIZE),
});

/** A seller's subscription plan (PUT /api/store/subscription-plan, its page): a slider step from 100, what subscribers get. */
export const subscriptionPlanSchema = z.object({
  monthlyPrice: coinStep(SUBSCRIPTION_PRICE_MIN),
  description: multiLineText(SUBSCRIPTION_DESCRIPTION_MAX, { required: false }).optional().default(""),
});
export type SubscriptionPlanInput = z.infer<typeof subscriptionPlanSchema>;

/** POST /api/subscriptions. */
export const subscribeSchema = z.object({ subscribeeId: uuid });
/** The confirmation page's form: its idempotency key, made when the page was rendered. */
export const subscribeFormSchema = z.object({ idempotencyKey: idempotencyKeySchema });

/**
 * `/events?game=&page=&pastPage=` (issue 16): the game filter is a slug (the select's empty choice is every game),
 * `page` pages the upcoming list and `pastPage` the past one.
 */
export const eventListQuerySchema = z.object({
  game: z
    .string()
    .max(GAME_SLUG_MAX)
    .regex(/^[a-z0-9-]*$/)
    .optional()
    .transform((slug) => slug || undefined),
  page: queryInt(0, PAGE_NUMBER_MAX).optional().default(0),
  pastPage: queryInt(0, PAGE_NUMBER_MAX).optional().default(0),
});
/** The join and leave buttons of an event page. */
export const eventActionSchema = z.object({ intent: z.enum(["join", "leave"]) });

/** A game's or a community's slug in a path (`/games/{slug}`, `/community/{slug}`): anything else is a 404. */
const slugParam = z.string().max(COMMUNITY_SLUG_MAX).regex(/^[a-z0-9]+(-[a-z0-9]+)*$/);
export const slugParamsSchema = z.object({ slug: slugParam });
/** The new post page's `?community={slug}` preselects one of the viewer's communities. */
export const newPostQuerySchema = z.object({ community: slugParam.optional().catch(undefined) });
/** Joining or leaving a community from its page (a plain form). */
export const communityMembershipSchema = z.object({ intent: z.enum(["join", "leave"], { message: messages.validation.checkInput }) });
