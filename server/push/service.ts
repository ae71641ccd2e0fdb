import { serialPasses } from "../serial-passes";
import type { SweepJob } from "../sweeper";
import type { AppConfig } from "../../app/infra/config";
import type { DatabaseHandle } from "../../app/infra/db";
import { log } from "../../app/infra/logger.server";
import { createPushClient, type PushClient } from "../../app/infra/push";
import { PUSH_TIMEOUT_MS } from "../../app/lib/constants";
import { deleteOldFailedPushes, deliverDuePushes, pushPayloadOf, type OutboxPush, type PushSendResult } from "../../app/models/push-outbox.server";

export interface PushService {
  /** Sends what is due now; a pass under way is joined, and one more follows it if woken meanwhile. */
  deliver(): Promise<number>;
  /** The sweeper's retry of what failed (and of what a dead process had claimed), and the old failures' cleanup. */
  sweepJob: SweepJob;
  close(): Promise<void>;
}

/**
 * Sends the push outbox (app/models/push-outbox.server.ts, ADR 052) to the devices' push services with VAPID and
 * encrypted payloads (app/infra/push.ts). Every process listens for the outbox's NOTIFY, which the database sends when
 * a transaction that wrote a push commits, so a chat message's push leaves within moments, whichever replica stored
 * it; the sweeper's pass retries what waits.
 */
export async function startPushService({
  config,
  database,
  clock = () => new Date(),
  client = createPushClient({ publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject: config.VAPID_SUBJECT, timeoutMs: PUSH_TIMEOUT_MS, outbound: { allowLoopback: config.TEST_OUTBOUND_LOOPBACK } }),
}: {
  config: AppConfig;
  database: DatabaseHandle;
  clock?: () => Date;
  client?: PushClient;
}): Promise<PushService> {
  async function send(push: OutboxPush): Promise<PushSendResult> {
    const result = await client.send({ endpoint: push.endpoint, p256dh: push.p256dh, auth: push.auth }, JSON.stringify(pushPayloadOf(push)), {
      ttl: push.ttl,
      urgency: push.urgency,
      topic: push.topic,
    });
    if (result.outcome === "sent" || result.outcome === "gone") return { outcome: result.outcome };
    if (result.outcome === "retry") return { outcome: "retry", error: result.error, retryAfterMs: result.retryAfterMs };
    return { outcome: "refused", error: result.error };
  }

  // Sent, not yet marked: the database went away between the two (deliverDuePushes marks them on the next pass).
  const unmarked = new Map<number, Date>();
  const passes = serialPasses(
    () =>
      deliverDuePushes({
        db: database.db,
        now: clock,
        send,
        unmarked,
        concurrency: database.engine === "postgres" ? 4 : 1,
        onFailure: (push, result, gaveUp) => {
          const fields = { event: "push", pushId: push.id, kind: push.kind, subscriptionId: push.subscription_id, attempts: push.attempts, gaveUp };
          if (result.outcome === "gone") log.info(fields, `push: device #${push.subscription_id} is gone; forgotten`);
          else log.warn({ ...fields, error: result.error }, `push: ${push.kind} #${push.id} ${gaveUp ? "given up" : "failed"}`);
        },
      }),
    (error) => log.error({ event: "push", err: error }, "push: delivery failed"),
  );
  const deliver = passes.run;

  await database.listen("push_outbox", () => void deliver());
  // Whatever was written while no process was sending (a crash, a deploy) goes now.
  void deliver();
  return {
    deliver,
    sweepJob: {
      name: "push",
      async run({ db, now }) {
        const deleted = await deleteOldFailedPushes({ db, now });
        return deleted + (await deliver());
      },
    },
    async close() {
      await passes.close();
    },
  };
}
