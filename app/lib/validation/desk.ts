import { z } from "zod";
import { AUDIT_TARGET_TYPES, DECISION_REASON_MAX, OPERATOR_AUDIT_KINDS, SUSPEND_DAYS_MAX } from "../constants/desk";
import { REPORT_REASONS, REPORT_TARGET_TYPES } from "../constants/moderation";
import { messages } from "../messages";
import { multiLineText, queryInt, singleLineText, UUID } from "./fields";

/**
 * The operators' desk's forms and queries (ADR 071). A GET form's empty choice (「すべて」) is no filter; anything
 * not on the list is a 400 like any other bad query.
 */
const blankIsNone = (value: unknown) => (value === "" ? undefined : value);
const choice = <T extends readonly [string, ...string[]]>(values: T) => z.preprocess(blankIsNone, z.enum(values).optional());

export const targetTypeParam = z.enum(REPORT_TARGET_TYPES);

/** /admin/reports?reason=…&type=…: the queue narrowed by a reason and a kind of target. */
export const reportQueueQuerySchema = z.object({ reason: choice(REPORT_REASONS), type: choice(REPORT_TARGET_TYPES) });

/** /admin/reports/{type}/{id}: a chat message's number or a uuid, as the reports table holds them. */
export const reportTargetParamsSchema = z
  .object({ type: targetTypeParam, id: z.string().max(40) })
  .refine(({ type, id }) => (type === "chat_message" ? /^[1-9]\d{0,17}$/.test(id) : UUID.test(id)));

const reason = multiLineText(DECISION_REASON_MAX, { required: messages.desk.reasonRequired });
const days = z.coerce
  .number({ invalid_type_error: messages.desk.daysInvalid(SUSPEND_DAYS_MAX) })
  .int(messages.desk.daysInvalid(SUSPEND_DAYS_MAX))
  .min(1, messages.desk.daysInvalid(SUSPEND_DAYS_MAX))
  .max(SUSPEND_DAYS_MAX, messages.desk.daysInvalid(SUSPEND_DAYS_MAX));

/**
 * A decision from the desk: on a report's target (hide it, dismiss its reports, restore it) or on its owner (suspend
 * for N days, ban, lift). The same decisions as `npm run moderation`, through the same model functions.
 */
export const deskDecisionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("hide"), reason }),
  z.object({ intent: z.literal("dismiss"), reason }),
  z.object({ intent: z.literal("restore"), reason }),
  z.object({ intent: z.literal("suspend"), reason, days }),
  z.object({ intent: z.literal("ban"), reason }),
  z.object({ intent: z.literal("lift"), reason }),
]);
export type DeskDecision = z.infer<typeof deskDecisionSchema>;

/** The decisions a person's page offers (no report in view): suspend, ban, lift. */
export const personDecisionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("suspend"), reason, days }),
  z.object({ intent: z.literal("ban"), reason }),
  z.object({ intent: z.literal("lift"), reason }),
]);

/** /admin/users?q=…: an address, a display name or an id. */
export const userSearchQuerySchema = z.object({ q: z.preprocess(blankIsNone, singleLineText(200).optional()) });

export const userParamsSchema = z.object({ id: z.string().regex(UUID) });

/** /admin/audit?operator=…&type=…&target=…&kind=…&before=…: the trail narrowed, a page older than `before`. */
export const auditQuerySchema = z.object({
  operator: z.preprocess(blankIsNone, z.string().regex(UUID).optional()),
  type: choice(AUDIT_TARGET_TYPES),
  target: z.preprocess(blankIsNone, singleLineText(100).optional()),
  kind: choice(OPERATOR_AUDIT_KINDS),
  before: z.preprocess(blankIsNone, queryInt(1, Number.MAX_SAFE_INTEGER).optional()),
})
  // A target's id means something only with its kind.
  .refine((query) => query.target === undefined || query.type !== undefined);
