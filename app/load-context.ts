import type { Server as SocketServer } from "socket.io";
import type { RequestAuth } from "./infra/auth/session";
import type { AppConfig } from "./infra/config";
import type { Database } from "./infra/db/tables";
import type { Payments } from "./infra/payments";
import type { Realtime } from "./infra/realtime";
import type { ImageStorage } from "./infra/storage";
import type { ChatSender } from "./models/chat-sender.server";

/** What every loader and action receives as `context`. Tests build their own. */
export interface AppContext {
  /** The primary: every write, every transaction, and every read of the caller's own things. */
  db: Database;
  /**
   * For the heavy public reads only (explore, game pages, profiles, the public feed): the read replica when there is
   * one that already holds the caller's last write, else the primary (app/infra/db/read-replica.ts, ADR 040).
   */
  readDb: Database;
  io: SocketServer;
  config: AppConfig;
  cspNonce: string;
  /** The caller of this request (see app/infra/auth/session.ts). */
  auth: RequestAuth;
  /** The one way to emit realtime events (app/infra/realtime.ts). */
  realtime: Realtime;
  /** How chat messages people type are stored and announced: group commit (app/models/chat-sender.server.ts). */
  chat: ChatSender;
  /** How coins are paid for: the test provider or Stripe (app/infra/payments.ts). */
  payments: Payments;
  /** Where uploaded images are stored: DATA_DIR/uploads, an S3-API or a Supabase Storage bucket (app/infra/storage/). */
  storage: ImageStorage;
  /**
   * Set by entry.server's handleError when a loader or action of this request found the database out of reach: the
   * answer is then a 503 with Retry-After instead of a 500.
   */
  databaseDown?: boolean;
}

declare module "@remix-run/server-runtime" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
  interface Future {
    v3_singleFetch: true;
  }
}
