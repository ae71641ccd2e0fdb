import type { Server as SocketServer } from "socket.io";
import type { ChatSender } from "../app/models/chat-sender.server";
import type { RequestAuth } from "./auth/session";
import type { AppConfig } from "./config";
import type { Database } from "./db/schema";
import type { Payments } from "./payments";
import type { Realtime } from "./realtime";
import type { ImageStorage } from "./storage";

/** What every loader and action receives as `context`. Tests build their own. */
export interface AppContext {
  db: Database;
  io: SocketServer;
  config: AppConfig;
  cspNonce: string;
  /** The caller of this request (see server/auth/session.ts). */
  auth: RequestAuth;
  /** The one way to emit realtime events (server/realtime.ts). */
  realtime: Realtime;
  /** How chat messages people type are stored and announced: group commit (app/models/chat-sender.server.ts). */
  chat: ChatSender;
  /** How coins are paid for: the test provider or Stripe (server/payments.ts). */
  payments: Payments;
  /** Where uploaded images are stored: DATA_DIR/uploads or a Supabase Storage bucket (server/storage.ts). */
  storage: ImageStorage;
}

declare module "@remix-run/server-runtime" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
  interface Future {
    v3_singleFetch: true;
  }
}
