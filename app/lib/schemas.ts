import { z } from "zod";
import {
  BIO_MAX,
  COIN_HISTORY_LIMIT_MAX,
  COIN_HISTORY_PAGE_SIZE,
  CHAT_GROUP_MAX_PARTICIPANTS,
  CHAT_MESSAGE_MAX,
  CHAT_ROOM_NAME_MAX,
  CHAT_ROOMS_PAGE_SIZE,
  DISPLAY_NAME_MAX,
  GAME_RANK_MAX,
  INQUIRY_BODY_MAX,
  INQUIRY_CATEGORIES,
  INQUIRY_NAME_MAX,
  NOTIFICATIONS_LIMIT_MAX,
  NOTIFICATIONS_PAGE_SIZE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PROFILE_GAMES_MAX,
  type InquiryCategory,
} from "./constants";
import { messages } from "./messages";

/** Zod schemas shared by form actions, JSON routes and the browser (Conform validates with the same ones). */

const requiredText = (max: number) =>
  z
    .string({ required_error: messages.validation.required })
    .trim()
    .min(1, messages.validation.required)
    .max(max, messages.validation.maxLength(max));

const categoryValues = INQUIRY_CATEGORIES.map((category) => category.value) as [InquiryCategory, ...InquiryCategory[]];

export const inquirySchema = z.object({
  name: requiredText(INQUIRY_NAME_MAX),
  email: z
    .string({ required_error: messages.validation.required })
    .trim()
    .min(1, messages.validation.required)
    .max(254, messages.validation.maxLength(254))
    .email(messages.validation.email),
  category: z.enum(categoryValues, {
    errorMap: (issue) => ({
      message:
        issue.code === "invalid_type" && issue.received === "undefined"
          ? messages.validation.selectRequired
          : messages.validation.invalidChoice,
    }),
  }),
  body: requiredText(INQUIRY_BODY_MAX),
});
export type InquiryInput = z.infer<typeof inquirySchema>;

export const loginSchema = z.object({
  email: z
    .string({ required_error: messages.validation.required })
    .trim()
    .min(1, messages.validation.required)
    .email(messages.validation.email),
  password: z.string({ required_error: messages.validation.required }).min(1, messages.validation.required),
  redirectTo: z.string().optional(),
});

export const signupSchema = loginSchema.extend({
  password: z
    .string({ required_error: messages.validation.required })
    .min(PASSWORD_MIN_LENGTH, messages.auth.passwordTooShort(PASSWORD_MIN_LENGTH))
    .max(PASSWORD_MAX_LENGTH, messages.validation.maxLength(PASSWORD_MAX_LENGTH)),
});

/** Which sessions a sign-out ends: this one (the default) or every device's (supabase-js `signOut({ scope })`). */
export const signOutScopeSchema = z.enum(["local", "global"]).default("local");

/** A profile (POST /api/user/profile and /mypage/gamer-edit). Games are the ones ticked, each with an optional rank. */
export const profileSchema = z.object({
  displayName: requiredText(DISPLAY_NAME_MAX),
  bio: z.string().trim().max(BIO_MAX, messages.validation.maxLength(BIO_MAX)).optional().default(""),
  avatarUrl: z
    .string()
    .trim()
    .url(messages.validation.url)
    .refine((url) => /^https?:\/\//.test(url), messages.validation.url)
    .optional(),
  games: z
    .array(
      z
        .object({
          slug: z.string().trim().optional(),
          rank: z.string().trim().max(GAME_RANK_MAX, messages.validation.maxLength(GAME_RANK_MAX)).optional(),
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

export const sendMessageSchema = z.object({
  roomId: uuid,
  content: z
    .string({ required_error: messages.chat.emptyMessage })
    .trim()
    .min(1, messages.chat.emptyMessage)
    .max(CHAT_MESSAGE_MAX, messages.validation.maxLength(CHAT_MESSAGE_MAX)),
  // People send text; ticket and system messages are posted by the app itself.
  messageType: z.literal("TEXT").optional().default("TEXT"),
  metadata: z
    .object({ caption: z.string().max(CHAT_MESSAGE_MAX).nullable().optional() })
    .nullable()
    .optional()
    .default(null),
});

export const createRoomSchema = z.object({
  participantIds: z.array(uuid).min(1).max(CHAT_GROUP_MAX_PARTICIPANTS),
  type: z.enum(["DIRECT", "GROUP"]).optional().default("DIRECT"),
  name: z.string().trim().max(CHAT_ROOM_NAME_MAX, messages.validation.maxLength(CHAT_ROOM_NAME_MAX)).nullable().optional().default(null),
});

export const listRoomsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(CHAT_ROOMS_PAGE_SIZE).optional().default(CHAT_ROOMS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).optional().default(0),
});

export const listMessagesQuerySchema = z.object({
  roomId: uuid,
  before: z.coerce.number().int().positive().optional(),
});

export const uuidParam = uuid;

/** A query flag: `true`/`1` is on; absent, `false` or `0` is off; anything else is invalid input. */
const booleanParam = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((value) => value === "true" || value === "1");

/** GET /api/notifications (SPEC §7): a page, unread first when asked; or just the unread count. */
export const listNotificationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_LIMIT_MAX).optional().default(NOTIFICATIONS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).optional().default(0),
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
  limit: z.coerce.number().int().min(1).max(COIN_HISTORY_LIMIT_MAX).optional().default(COIN_HISTORY_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional().default(0),
});
