import { sql, type Selectable } from "kysely";
import type { Database, MailOutboxTable } from "~/infra/db/tables";
import { MAIL_BATCH, MAIL_CLAIM_MS, MAIL_RETRY } from "~/lib/constants";

/**
 * The mail outbox (ADR 027): a mail is a row written with `enqueueMail` in the transaction of what it is about, so a
 * rolled-back event sends nothing and a committed one is never lost. Delivery claims due rows for a minute, sends
 * each outside any transaction and marks it; a failure waits (30 s doubling to an hour, 10 tries) for the next pass.
 * A process that dies between sending and marking leaves the claim to expire, and the mail is sent again: at least
 * once, never lost. Its Message-ID is the row's, so a mail client folds the two. A database that goes away between
 * sending and marking (a restart) does not make it twice: the process keeps the mark and writes it once it is back.
 */
export type OutboxMail = Selectable<MailOutboxTable>;

export interface NewMail {
  /** The template (server/mail/templates.ts): "recovery", "booking_requested" … */
  kind: string;
  to: string;
  userId?: string | null;
  /** What the mail is about within its kind (a chat room), for "at most one per hour". */
  topic?: string | null;
  /** What the template fills in. */
  data?: Record<string, unknown>;
  /** When it was written, on the caller's clock (the sweeper's, which tests move); the database's now by default. */
  createdAt?: Date;
}

export async function enqueueMail(db: Database, mails: readonly NewMail[]) {
  if (mails.length === 0) return;
  await db
    .insertInto("mail_outbox")
    .values(
      mails.map((mail) => ({
        kind: mail.kind,
        to_address: mail.to,
        user_id: mail.userId ?? null,
        topic: mail.topic ?? null,
        data: JSON.stringify(mail.data ?? {}),
        created_at: mail.createdAt,
      })),
    )
    .execute();
}

/** How long a mail waits after its `attempts`-th failure. */
export function mailRetryDelayMs(attempts: number) {
  return Math.min(MAIL_RETRY.maxMs, MAIL_RETRY.baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

/** Claims up to `limit` mails due at `now` that no live claim holds (any number of processes may call this at once). */
export async function claimDueMail({ db, now, limit = MAIL_BATCH }: { db: Database; now: Date; limit?: number }) {
  // Due by the caller's clock (which tests move) or by the database's: a mail written in the same millisecond as the
  // NOTIFY that wakes us has a next_attempt_at (microseconds) just past a JavaScript Date of that millisecond, and
  // would otherwise wait for the next sweep.
  const due = sql<Date>`greatest(${now}::timestamptz, now())`;
  return db
    .updateTable("mail_outbox")
    .set((eb) => ({ locked_until: new Date(now.getTime() + MAIL_CLAIM_MS), attempts: eb("attempts", "+", 1) }))
    .where("id", "in", (eb) =>
      eb
        .selectFrom("mail_outbox")
        .select("id")
        .where("sent_at", "is", null)
        .where("failed_at", "is", null)
        .where("next_attempt_at", "<=", due)
        .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

/** The mail went out: marked sent, and a link's secret it carried is forgotten. */
export async function markMailSent({ db, id, now }: { db: Database; id: number; now: Date }) {
  await db
    .updateTable("mail_outbox")
    .set({ sent_at: now, locked_until: null, last_error: null, data: sql<string>`data - 'token'` })
    .where("id", "=", id)
    .execute();
}

/** The mail could not be sent: tried again later, or given up after the last try. */
export async function markMailFailed({ db, mail, error, now }: { db: Database; mail: OutboxMail; error: string; now: Date }) {
  const lastTry = mail.attempts >= MAIL_RETRY.maxAttempts;
  await db
    .updateTable("mail_outbox")
    .set({
      locked_until: null,
      last_error: error.slice(0, 1000),
      ...(lastTry ? { failed_at: now, data: sql<string>`data - 'token'` } : { next_attempt_at: new Date(now.getTime() + mailRetryDelayMs(mail.attempts)) }),
    })
    .where("id", "=", mail.id)
    .execute();
  return lastTry;
}

/**
 * Sends every mail due at `now`, batch by batch, with `send` (which throws when the mail could not be handed over);
 * answers how many went out. Nothing here runs inside a transaction.
 */
export async function deliverDueMail({
  db,
  now,
  send,
  onFailure,
  unmarked,
}: {
  db: Database;
  now: () => Date;
  send: (mail: OutboxMail) => Promise<void>;
  onFailure?: (mail: OutboxMail, error: unknown, gaveUp: boolean) => void;
  /**
   * Mails handed over whose mark could not be written (the database went away in between), with when they
   * were sent: the caller keeps it across passes, and each pass marks them before it claims anything, so that a mail
   * sent during an outage is not claimed and sent again once its claim has run out.
   */
  unmarked?: Map<number, Date>;
}) {
  let sent = 0;
  if (unmarked) {
    for (const [id, at] of unmarked) {
      await markMailSent({ db, id, now: at });
      unmarked.delete(id);
    }
  }
  for (;;) {
    const batch = await claimDueMail({ db, now: now() });
    if (batch.length === 0) return sent;
    for (const mail of batch) {
      try {
        await send(mail);
      } catch (error) {
        const gaveUp = await markMailFailed({ db, mail, error: error instanceof Error ? error.message : String(error), now: now() });
        onFailure?.(mail, error, gaveUp);
        continue;
      }
      const sentAt = now();
      try {
        await markMailSent({ db, id: mail.id, now: sentAt });
      } catch (error) {
        unmarked?.set(mail.id, sentAt);
        throw error;
      }
      sent += 1;
    }
  }
}
