import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { serialPasses } from "../serial-passes";
import type { SweepJob } from "../sweeper";
import type { AppConfig } from "../../app/infra/config";
import type { DatabaseHandle } from "../../app/infra/db";
import { log } from "../../app/infra/logger.server";
import { deliverDueMail, type OutboxMail } from "../../app/models/mail-outbox.server";
import { renderMail, type RenderedMail } from "./templates";

export interface MailService {
  /** Sends what is due now; a pass under way is joined, and one more follows it if woken meanwhile. */
  deliver(): Promise<number>;
  /** The sweeper's retry of what failed (and of what a dead process had claimed). */
  sweepJob: SweepJob;
  /** Where mail goes: "smtp" or the folder of .eml files. */
  destination: string;
  close(): Promise<void>;
}

/**
 * Sends the outbox (app/models/mail-outbox.server.ts, ADR 027): through nodemailer to SMTP_URL, or, without it, into
 * DATA_DIR/mail as .eml files with each mail's link in the log, so development needs no mail server. Every process
 * listens for the outbox's NOTIFY, which the database sends when a transaction that wrote a mail commits, so a
 * recovery mail leaves within moments of the request, whichever replica took it.
 */
export async function startMailService({
  config,
  database,
  siteUrl,
  clock = () => new Date(),
}: {
  config: AppConfig;
  database: DatabaseHandle;
  /** Where links point; asked at each send, since the port may be known only after listen. */
  siteUrl: () => string;
  clock?: () => Date;
}): Promise<MailService> {
  const mailDir = path.join(config.DATA_DIR, "mail");
  const smtp = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : undefined;
  const files = smtp ? undefined : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const domain = /@([^>\s]+)>?\s*$/.exec(config.MAIL_FROM)?.[1] ?? "gamermatch.localhost";

  async function send(mail: OutboxMail) {
    const rendered: RenderedMail = renderMail(mail, { siteUrl: siteUrl(), secret: config.SESSION_SECRET });
    const message = {
      from: config.MAIL_FROM,
      to: mail.to_address,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      headers: rendered.headers,
      // Stable across retries and a resend after a crash, so a mail client shows one mail.
      messageId: `<outbox-${mail.id}.${mail.created_at.getTime()}@${domain}>`,
      date: mail.created_at,
    };
    if (smtp) {
      await smtp.sendMail(message);
      log.info({ event: "mail", mailId: mail.id, kind: mail.kind }, `mail: ${mail.kind} #${mail.id} sent`);
      return;
    }
    const info = await files!.sendMail(message);
    await fs.mkdir(mailDir, { recursive: true });
    const file = path.join(mailDir, `${mail.created_at.toISOString().replace(/[:.]/g, "-")}-${mail.id}-${mail.kind}.eml`);
    await fs.writeFile(file, info.message as Buffer);
    // The link carries a one-time token: printed in development only, where the log is the developer's mailbox.
    log.info(
      { event: "mail", mailId: mail.id, kind: mail.kind, file: path.relative(process.cwd(), file), ...(config.NODE_ENV === "development" ? { link: rendered.link } : {}) },
      config.NODE_ENV === "development" ? `mail: ${mail.kind} to ${mail.to_address}: ${rendered.link}` : `mail: ${mail.kind} #${mail.id} written`,
    );
  }

  // Sent, not yet marked: the database went away between the two (deliverDueMail marks them on the next pass).
  const unmarked = new Map<number, Date>();
  const passes = serialPasses(
    () =>
      deliverDueMail({
        db: database.db,
        now: clock,
        send,
        unmarked,
        onFailure: (mail, error, gaveUp) =>
          log.error({ event: "mail", mailId: mail.id, kind: mail.kind, attempts: mail.attempts, gaveUp, err: error }, `mail: ${mail.kind} #${mail.id} ${gaveUp ? "given up" : "failed"}`),
      }),
    (error) => log.error({ event: "mail", err: error }, "mail: delivery failed"),
  );
  const deliver = passes.run;

  await database.listen("mail_outbox", () => void deliver());
  // Whatever was written while no process was sending (a crash, a deploy) goes now.
  void deliver();
  return {
    deliver,
    sweepJob: { name: "mail", run: () => deliver() },
    destination: smtp ? "smtp" : mailDir,
    async close() {
      await passes.close();
      smtp?.close();
    },
  };
}
