import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAIL_CLAIM_MS, MAIL_RETRY } from "~/lib/constants";
import { claimDueMail, enqueueMail, mailRetryDelayMs } from "~/models/mail-outbox.server";
import { createTestDatabase, testEngine, type TestDatabase } from "../support/database";
import { startTestMailServer, type TestMailServer } from "../support/mail";
import { loadConfig } from "../../app/infra/config";
import { startMailService, type MailService } from "../../server/mail/service";

// The outbox (ADR 027) against a real SMTP server on loopback: a mail exists exactly when its transaction committed,
// leaves right after the commit, survives a crash between commit and send, and is retried with backoff.
describe(`mail outbox (${testEngine})`, () => {
  let database: TestDatabase;
  let smtp: TestMailServer;
  let dataDir: string;
  // The services' clock: the real time moved on by `offset` (mails are written at the database's own now()).
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  const services: MailService[] = [];
  const config = () => loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SMTP_URL: smtp.url, SESSION_SECRET: "s".repeat(32) });
  const start = async () => {
    const service = await startMailService({ config: config(), database, siteUrl: () => "https://gamermatch.test", clock });
    services.push(service);
    return service;
  };
  const recovery = (to: string) => ({ kind: "recovery", to, data: { token: `token-${to}` } });
  const rows = () => database.db.selectFrom("mail_outbox").selectAll().orderBy("id").execute();

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startTestMailServer();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-mail-"));
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
    smtp.failing = false;
    offset = 0;
  });
  afterAll(async () => {
    await smtp.close();
    await database.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("sends a committed mail right after the commit, with a stable Message-ID and the recovery link", async () => {
    await start();
    await database.db.transaction().execute((trx) => enqueueMail(trx, [recovery("first@example.jp")]));
    const mail = await smtp.waitFor("first@example.jp", { timeoutMs: 5_000 });
    expect(mail.subject).toBe("【GamerMatch】パスワードの再設定");
    expect(mail.links[0]).toBe("https://gamermatch.test/auth/confirm?token_hash=token-first%40example.jp&type=recovery");
    const [row] = (await rows()).filter((r) => r.to_address === "first@example.jp");
    expect(mail.messageId).toBe(`<outbox-${row!.id}.${row!.created_at.getTime()}@gamermatch.localhost>`);
    await expect.poll(async () => (await rows()).find((r) => r.id === row!.id)?.sent_at).not.toBeNull();
    // The link's secret is not kept once the mail has gone.
    expect((await rows()).find((r) => r.id === row!.id)!.data).toEqual({});
  });

  it("never sends a mail whose transaction rolled back", async () => {
    await start();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await enqueueMail(trx, [recovery("rolled-back@example.jp")]);
        throw new Error("the event failed");
      }),
    ).rejects.toThrow("the event failed");
    await database.db.transaction().execute((trx) => enqueueMail(trx, [recovery("after@example.jp")]));
    await smtp.waitFor("after@example.jp");
    expect(smtp.to("rolled-back@example.jp")).toEqual([]);
    expect((await rows()).map((r) => r.to_address)).not.toContain("rolled-back@example.jp");
  });

  it("delivers after a crash between commit and send: a mail claimed by a process that died goes out once its claim expires", async () => {
    // Written while no process sends, then claimed by one that dies before sending.
    await enqueueMail(database.db, [recovery("crash@example.jp")]);
    const [claimed] = await claimDueMail({ db: database.db, now: clock() });
    expect(claimed!.to_address).toBe("crash@example.jp");
    const service = await start();
    await service.deliver();
    expect(smtp.to("crash@example.jp")).toHaveLength(0);
    offset += MAIL_CLAIM_MS + 1;
    await service.deliver();
    const mail = await smtp.waitFor("crash@example.jp");
    expect(mail.messageId).toContain(`<outbox-${claimed!.id}.`);
    expect(smtp.to("crash@example.jp")).toHaveLength(1);
  });

  it("retries a failing SMTP server with backoff, then sends once it works", async () => {
    const service = await start();
    const sweep = () => service.sweepJob.run({ db: database.db, realtime: undefined as never, now: clock() });
    const row = async () => (await rows()).find((r) => r.to_address === "retry@example.jp")!;
    await service.deliver();
    smtp.failing = true;
    await enqueueMail(database.db, [recovery("retry@example.jp")]);
    await expect.poll(async () => (await row())?.attempts).toBe(1);
    await expect.poll(async () => (await row()).last_error).toMatch(/451/);
    const first = await row();
    const wait = first.next_attempt_at.getTime() - clock().getTime();
    expect(wait).toBeGreaterThan(MAIL_RETRY.baseMs - 2_000);
    expect(wait).toBeLessThanOrEqual(MAIL_RETRY.baseMs);
    // Not before its time; at its time, failing again, then twice as long.
    await sweep();
    expect((await row()).attempts).toBe(1);
    offset += MAIL_RETRY.baseMs;
    await sweep();
    const second = await row();
    expect(second.attempts).toBe(2);
    const secondWait = second.next_attempt_at.getTime() - clock().getTime();
    expect(secondWait).toBeGreaterThan(2 * MAIL_RETRY.baseMs - 2_000);
    expect(secondWait).toBeLessThanOrEqual(2 * MAIL_RETRY.baseMs);
    expect(mailRetryDelayMs(2)).toBe(2 * MAIL_RETRY.baseMs);
    smtp.failing = false;
    offset += mailRetryDelayMs(2);
    await sweep();
    await smtp.waitFor("retry@example.jp");
    expect(smtp.to("retry@example.jp")).toHaveLength(1);
    expect((await row()).sent_at).not.toBeNull();
  });

  it("gives up after the last try and says so", async () => {
    const service = await start();
    smtp.failing = true;
    await enqueueMail(database.db, [recovery("never@example.jp")]);
    for (let attempt = 1; attempt <= MAIL_RETRY.maxAttempts; attempt += 1) {
      await service.deliver();
      offset += MAIL_RETRY.maxMs;
    }
    const row = (await rows()).find((r) => r.to_address === "never@example.jp")!;
    expect(row.attempts).toBe(MAIL_RETRY.maxAttempts);
    expect(row.failed_at).not.toBeNull();
    expect(row.data).toEqual({});
  });

  it("a mail is due by the database's clock too: the NOTIFY of a commit in the same millisecond finds it", async () => {
    // A JavaScript Date has milliseconds and next_attempt_at microseconds: a caller's "now" of the same millisecond
    // (here a moment behind) must not leave the mail for the next sweep.
    await enqueueMail(database.db, [recovery("same-ms@example.jp")]);
    const claimed = await claimDueMail({ db: database.db, now: new Date(Date.now() - 1_000) });
    expect(claimed.map((mail) => mail.to_address)).toContain("same-ms@example.jp");
  });

  it("two processes sending at once send each mail once", async () => {
    const [a, b] = [await start(), await start()];
    await Promise.all([a.deliver(), b.deliver()]);
    const addresses = Array.from({ length: 30 }, (_, i) => `many-${i}@example.jp`);
    await enqueueMail(database.db, addresses.map(recovery));
    await Promise.all([a.deliver(), b.deliver(), a.deliver(), b.deliver()]);
    await expect.poll(async () => (await sql<{ n: number }>`select count(*)::int as n from mail_outbox where to_address like 'many-%' and sent_at is not null`.execute(database.db)).rows[0]!.n).toBe(30);
    for (const address of addresses) expect(smtp.to(address)).toHaveLength(1);
  });
});
