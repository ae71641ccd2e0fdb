import type { Selectable } from "kysely";
import type { Database, OperatorActionKind, OperatorAuditTable, OperatorTargetType } from "~/infra/db/tables";
import { OPERATOR_AUDIT_PAGE_MAX } from "~/lib/constants";

/**
 * The operators' audit trail (`operator_audit`, ADR 068): one row per operator action, from the command line
 * or the desk, written by `recordOperatorAction` inside the transaction of the action itself, so a row exists exactly
 * when its action happened. The database refuses to change or delete a row (a trigger), whoever asks.
 */

/** Who acted: the operator's account (null for the command line, which has none) and how a person reads it. */
export interface Operator {
  id: string | null;
  label: string;
}

export type OperatorAuditRow = Selectable<OperatorAuditTable>;

export interface OperatorActionInput {
  operator: Operator;
  kind: OperatorActionKind;
  target: { type: OperatorTargetType; id: string };
  /** Why, as the operator gave it; null where the action takes none (a payout paid as asked). */
  reason: string | null;
  /** What else a reader needs to know of the action (the moderation decision's id, the roles before and after …). */
  details?: Record<string, unknown>;
}

/** Writes the action's row in `trx`, the caller's transaction: it commits or rolls back with the action. */
export async function recordOperatorAction(trx: Database, { operator, kind, target, reason, details = {} }: OperatorActionInput): Promise<OperatorAuditRow> {
  return trx
    .insertInto("operator_audit")
    .values({
      operator_id: operator.id,
      operator_label: operator.label,
      kind,
      target_type: target.type,
      target_id: target.id,
      reason,
      details: JSON.stringify(details),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A page of the trail, newest first, narrowed by any of operator, target and kind: at most `limit` rows older than
 * `before` (the last row's id of the page before), and the cursor of the next page when there is one.
 */
export async function listOperatorActions(
  db: Database,
  {
    operatorId,
    target,
    kind,
    before,
    limit = 50,
  }: { operatorId?: string; target?: { type: OperatorTargetType; id?: string }; kind?: OperatorActionKind; before?: number; limit?: number },
): Promise<{ rows: OperatorAuditRow[]; nextBefore: number | null }> {
  const size = Math.max(1, Math.min(limit, OPERATOR_AUDIT_PAGE_MAX));
  let query = db.selectFrom("operator_audit").selectAll();
  if (operatorId !== undefined) query = query.where("operator_id", "=", operatorId);
  if (target) query = query.where("target_type", "=", target.type);
  if (target?.id !== undefined) query = query.where("target_id", "=", target.id);
  if (kind) query = query.where("kind", "=", kind);
  if (before !== undefined) query = query.where("id", "<", before);
  const rows = await query
    .orderBy("id", "desc")
    .limit(size + 1)
    .execute();
  const page = rows.slice(0, size);
  return { rows: page, nextBefore: rows.length > size ? page[page.length - 1]!.id : null };
}
