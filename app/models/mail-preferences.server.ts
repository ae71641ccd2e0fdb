import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Database } from "~/infra/db/tables";
import { MAIL_KINDS, MAIL_OFFLINE_AFTER_MS, type MailKind } from "~/lib/constants";
import { ago, seenSince } from "./presence.server";

/**
 * Which notification mails a user gets (docs/product.md#accounts, ADR 029): every kind is on until they turn it off, in
 * `/settings/notifications` or with the signed link of a mail (`mail_opt_outs` holds the kinds turned off).
 */

/**
 * SQL over `users as u`: the user takes `kind` by mail now. They have an address and have not left, they have
 * not been seen online since `offlineSince` (the tab was closed for 10 minutes: `user_presence`, see
 * presence.server.ts), and they have not turned that kind off.
 */
export const takesMail = ({ kind, offlineSince }: { kind: RawBuilder<unknown>; offlineSince: RawBuilder<unknown> }) => sql<SqlBool>`(
  u.email is not null and u.email <> '' and u.deleted_at is null
  and not ${seenSince("u.id", offlineSince)}
  and not exists (select 1 from mail_opt_outs o where o.user_id = u.id and o.kind = ${kind})
)`;

/** The database's now less the offline time, for producers that run on the real clock. */
export const offlineSinceNow = () => ago(MAIL_OFFLINE_AFTER_MS);

export interface NotificationMail {
  userId: string;
  kind: MailKind;
  title: string;
  body: string;
  link: string | null;
}

/**
 * Writes the mail of each notification whose user takes that kind now, with `db` (the producer's transaction):
 * one INSERT … SELECT for them all, so a mail exists exactly when its notification does. The outbox sends it
 * after the commit (mail-outbox.server.ts); the template repeats its title, body and link.
 */
export async function enqueueNotificationMails(db: Database, mails: readonly NotificationMail[]) {
  if (mails.length === 0) return;
  const rows = JSON.stringify(mails.map((mail) => ({ user_id: mail.userId, kind: mail.kind, title: mail.title, body: mail.body, link: mail.link })));
  await sql`
    insert into mail_outbox (kind, to_address, user_id, data)
    select v.kind, u.email, u.id, jsonb_build_object('title', v.title, 'body', v.body, 'link', v.link)
    from jsonb_to_recordset(${rows}::jsonb) as v(user_id uuid, kind text, title text, body text, link text)
    join users u on u.id = v.user_id
    where ${takesMail({ kind: sql`v.kind`, offlineSince: offlineSinceNow() })}`.execute(db);
}

/** Whether each kind of mail is on for the user, in MAIL_KINDS' order. */
export async function getMailPreferences({ db, userId }: { db: Database; userId: string }): Promise<Record<MailKind, boolean>> {
  const off = await db.selectFrom("mail_opt_outs").select("kind").where("user_id", "=", userId).execute();
  const offKinds = new Set(off.map((row) => row.kind));
  return Object.fromEntries(MAIL_KINDS.map((kind) => [kind, !offKinds.has(kind)])) as Record<MailKind, boolean>;
}

/** Turns on exactly the kinds in `enabled` and off every other (the settings form, which lists them all). */
export async function saveMailPreferences({ db, userId, enabled }: { db: Database; userId: string; enabled: readonly MailKind[] }) {
  const off = MAIL_KINDS.filter((kind) => !enabled.includes(kind));
  await db.transaction().execute(async (trx) => {
    let removal = trx.deleteFrom("mail_opt_outs").where("user_id", "=", userId);
    if (off.length) removal = removal.where("kind", "not in", off);
    await removal.execute();
    if (off.length) {
      await trx
        .insertInto("mail_opt_outs")
        .values(off.map((kind) => ({ user_id: userId, kind })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  });
}

/**
 * Turns one kind off (the signed unsubscribe link, RFC 8058's one-click POST): doing it again changes nothing.
 * Answers false when there is no such user.
 */
export async function turnOffMailKind({ db, userId, kind }: { db: Database; userId: string; kind: MailKind }) {
  const user = await db.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst();
  if (!user) return false;
  await db
    .insertInto("mail_opt_outs")
    .values({ user_id: userId, kind })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return true;
}

/** The address notification mails go to, if any (the settings page shows it). */
export async function mailAddressOf({ db, userId }: { db: Database; userId: string }) {
  const row = await db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  return row?.email || null;
}
