import type { ColumnType, Generated } from "kysely";
import type { CreatedAt, Timestamp } from "./columns";

/** What reaches members: in-app notifications, and the mail and push outboxes with their opt-outs. */

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  type: string;
  title: string;
  body: ColumnType<string, string | undefined, string>;
  link: string | null;
  read_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  kind: string;
  user_id: string | null;
  topic: string | null;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: Timestamp | null;
  sent_at: Timestamp | null;
  failed_at: Timestamp | null;
  last_error: string | null;
}

export interface MailOptOutsTable {
  user_id: string;
  kind: string;
  created_at: CreatedAt;
}

/** A device a user turned Web Push on for (migration 0029, ADR 052). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** 「Chrome（Android）」 */
  label: string;
  created_at: CreatedAt;
  last_success_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface PushOptOutsTable {
  user_id: string;
  kind: string;
  created_at: CreatedAt;
}

export type PushUrgency = "very-low" | "low" | "normal" | "high";

/** A push waiting to be sent to one device (deleted once the push service took it). */
export interface PushOutboxTable {
  id: Generated<number>;
  subscription_id: number;
  kind: string;
  topic: string | null;
  urgency: ColumnType<PushUrgency, PushUrgency | undefined, PushUrgency>;
  /** Seconds the push service keeps it for an offline device. */
  ttl: number;
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: CreatedAt;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: Timestamp | null;
  failed_at: Timestamp | null;
  last_error: string | null;
}
