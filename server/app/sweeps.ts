import type { AppConfig } from "../../app/infra/config";
import type { DatabaseHandle } from "../../app/infra/db";
import type { Realtime } from "../../app/infra/realtime";
import type { ImageStorage } from "../../app/infra/storage";
import { bookingReminderJob, bookingSweepJobs } from "../../app/models/bookings/sweeper.server";
import { chatDigestJob } from "../../app/models/chat-digest.server";
import { eventReminderJob } from "../../app/models/events.server";
import { mediaRemovalJob } from "../../app/models/media-removal.server";
import { subscriptionReminderJob } from "../../app/models/subscriptions.server";
import type { MailService } from "../mail/service";
import type { Metrics } from "../metrics";
import type { PushService } from "../push/service";
import { startSweeper, type Sweeper } from "../sweeper";

/** The one sweeper for everything time-driven, with every job this server has (server/sweeper.ts). */
export function startAppSweeper({
  config,
  database,
  realtime,
  storage,
  mail,
  push,
  metrics,
  clock,
}: {
  config: AppConfig;
  database: DatabaseHandle;
  realtime: Realtime;
  /** The image store: objects whose removal failed after their commit are tried again (ADR 070). */
  storage: ImageStorage;
  mail: MailService;
  push: PushService;
  metrics: Metrics;
  clock: (() => Date) | undefined;
}): Sweeper {
  return startSweeper({
    db: database.db,
    realtime,
    jobs: [...bookingSweepJobs({ feePercent: config.PLATFORM_FEE_PERCENT }), bookingReminderJob, subscriptionReminderJob, eventReminderJob, chatDigestJob, mail.sweepJob, push.sweepJob, mediaRemovalJob(storage)],
    clock,
    onRun: (done, at) => metrics.sweeperRan(done, at),
  });
}
