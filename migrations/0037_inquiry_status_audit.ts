import { sql, type Kysely } from "kysely";

/**
 * The audit trail names every operator action (ADR 071): closing an inquiry and reopening it are actions too, so
 * `operator_audit.kind` gains `inquiry_closed` and `inquiry_reopened`, written in the transaction that changes the
 * inquiry's status. The table stays append-only; only its check widens (the rows already there all satisfy it).
 */
const before = ["role_granted", "role_revoked", "report_decided", "sanction", "payout_paid", "payout_rejected", "bank_details_revealed", "inquiry_replied", "two_step_off"];
const after = [...before, "inquiry_closed", "inquiry_reopened"];

async function allowKinds(db: Kysely<any>, kinds: string[]) {
  await sql`alter table operator_audit drop constraint operator_audit_kind_check`.execute(db);
  await sql`alter table operator_audit add constraint operator_audit_kind_check check (kind in (${sql.join(kinds.map((kind) => sql.lit(kind)))}))`.execute(db);
}

export async function up(db: Kysely<any>) {
  await allowKinds(db, after);
}

export async function down(db: Kysely<any>) {
  await allowKinds(db, before);
}
