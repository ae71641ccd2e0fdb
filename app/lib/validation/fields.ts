import { z } from "zod";
import { COIN_SLIDER_STEPS, COMMUNITY_SLUG_MAX, EMAIL_MAX, JSON_DEPTH_MAX, PAGE_NUMBER_MAX, QUERY_OFFSET_MAX, REDIRECT_TO_MAX } from "../constants";
import { messages } from "../messages";

/**
 * The fields every domain's zod schemas are made of (app/lib/validation/<domain>.ts): stored text, ids, whole numbers,
 * flags and query parameters. Form actions, JSON routes and the socket parse with those schemas; the browser gets their
 * rules as attributes (form-rules.server.ts), never zod itself.
 */

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
export function storableText<Schema extends z.ZodString>(schema: Schema, multiLine: boolean) {
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

/** An id (a path parameter, a form field, a JSON value): a uuid. */
export const uuidParam = z.string().uuid(messages.validation.checkInput);

/**
 * The sender answered the off-platform payment warning with 「このまま送信する」 (docs/product.md#trust-and-safety): a JSON boolean, or the
 * plain form's hidden field. Optional: without it, the plain forms show the warning page first; the API and the socket
 * store and count the text either way.
 */
export const offPlatformConfirmed = () => z.union([z.boolean(), z.enum(["true", "on"]).transform(() => true)]).optional();

/** A form's checkbox or a JSON boolean. */
export const flag = z.union([z.boolean(), z.enum(["true", "on"]).transform(() => true), z.literal("false").transform(() => false)]);

/**
 * A whole number from a query string, within bounds: letters, fractions, `1e400` or 2^64 are a 400 here rather than
 * an error from the database.
 */
export const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
/** `?limit=n`: a whole number from 1; more than the list's maximum gets the maximum (no list is unbounded). */
export const limitParam = (max: number, fallback: number) =>
  queryInt(1, Number.MAX_SAFE_INTEGER)
    .transform((limit) => Math.min(limit, max))
    .optional()
    .default(fallback);
export const offsetParam = queryInt(0, QUERY_OFFSET_MAX).optional().default(0);

/** `?page=n` of the paged HTML lists (notifications, chat rooms, coin history); absent is the first page. */
export const pageQuerySchema = z.object({ page: queryInt(0, PAGE_NUMBER_MAX).optional().default(0) });

/** A query flag: `true`/`1` is on; absent, `false` or `0` is off; anything else is invalid input. */
export const booleanParam = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((value) => value === "true" || value === "1");

/** A game's or a community's slug in a path (`/games/{slug}`, `/community/{slug}`): anything else is a 404. */
export const slugParam = z.string().max(COMMUNITY_SLUG_MAX).regex(/^[a-z0-9]+(-[a-z0-9]+)*$/);
export const slugParamsSchema = z.object({ slug: slugParam });

/**
 * An idempotency key (the Idempotency-Key header, or the hidden field a checkout form is rendered with): visible
 * ASCII, at most 255 characters, as Stripe's.
 */
export const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{8,255}$/, messages.validation.checkInput);

/** A whole number sent as JSON or as a form field's text. */
export const wholeNumber = z
  .union([z.number(), z.string().trim().regex(/^-?\d{1,9}$/, messages.validation.checkInput).transform(Number)], {
    errorMap: () => ({ message: messages.validation.checkInput }),
  })
  .pipe(z.number({ invalid_type_error: messages.validation.checkInput }).int(messages.validation.checkInput));

/** An amount chosen with the coin slider (docs/product.md#validation): one of its steps, at least `min`. */
export const coinStep = (min: number, max = COIN_SLIDER_STEPS[COIN_SLIDER_STEPS.length - 1]) =>
  wholeNumber.refine((value) => (COIN_SLIDER_STEPS as readonly number[]).includes(value) && value >= min && value <= max, messages.validation.invalidChoice);

/** A UUID as the database writes them (any case): an id that is not one cannot name a row, and is refused before a query. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
