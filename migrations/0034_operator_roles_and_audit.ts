import { sql, type Kysely } from "kysely";

/**
 * The foundation of the operators' desk (ADR 068):
 *
 * - `auth_users.app_metadata`: GoTrue's `raw_app_meta_data`, what the account's owner cannot change (PUT /user refuses
 *   it). The operators' roles live there as `{"roles": ["moderator" | "finance" | "admin", …]}`, granted and revoked
 *   only by `npm run operators` (with hosted Supabase, GoTrue's own column through its admin API).
 * - `operator_audit`: every operator action, from the command line or (later) the desk, written in the same
 *   transaction as the action. Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE whoever asks (the table's
 *   owner included), with `gm_append_only()` of migration 0015. No foreign keys: the trail outlives what it names.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table auth_users add column app_metadata jsonb not null default '{}' check (jsonb_typeof(app_metadata) = 'object')`.execute(db);

  await db.schema
    .createTable("operator_audit")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    // The operator's account; null for the command line, which has none.
    .addColumn("operator_id", "uuid")
    // Who, as a person reads it: `cli:<os user>` for the shell, the operator's address for the desk.
    .addColumn("operator_label", "text", (col) => col.notNull().check(sql`char_length(operator_label) between 1 and 200`))
    .addColumn("kind", "text", (col) =>
      col
        .notNull()
        .check(
          sql`kind in ('role_granted', 'role_revoked', 'report_decided', 'sanction', 'payout_paid', 'payout_rejected', 'bank_details_revealed', 'inquiry_replied', 'two_step_off')`,
        ),
    )
    .addColumn("target_type", "text", (col) => col.notNull().check(sql`target_type in ('user', 'post', 'chat_message', 'listing', 'review', 'payout', 'inquiry')`))
    .addColumn("target_id", "text", (col) => col.notNull().check(sql`char_length(target_id) between 1 and 64`))
    .addColumn("reason", "text", (col) => col.check(sql`char_length(btrim(reason)) between 1 and 1000`))
    .addColumn("details", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'`))
    .execute();
  // The desk's filters, each newest first (keyset on id).
  await db.schema.createIndex("operator_audit_operator_idx").on("operator_audit").columns(["operator_id", "id desc"]).execute();
  await db.schema.createIndex("operator_audit_target_idx").on("operator_audit").columns(["target_type", "target_id", "id desc"]).execute();
  await db.schema.createIndex("operator_audit_kind_idx").on("operator_audit").columns(["kind", "id desc"]).execute();
  await sql`create trigger operator_audit_append_only before update or delete on operator_audit for each row execute function gm_append_only()`.execute(db);
  await sql`create trigger operator_audit_no_truncate before truncate on operator_audit for each statement execute function gm_append_only()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("operator_audit").execute();
  await db.schema.alterTable("auth_users").dropColumn("app_metadata").execute();
}
