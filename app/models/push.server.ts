import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
import { checkOutboundUrl, OutboundRefusal, type OutboundPolicy } from "~/infra/outbound";
import { log } from "~/infra/logger.server";
import { PUSH_DEVICES_MAX, PUSH_KINDS, type PushKind } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";
import { deviceLabel } from "~/lib/push-device";
import type { PushSubscriptionInput } from "~/lib/validation/push";

/**
 * Web Push's devices and choices (ADR 052): each device a user turned push on for (`push_subscriptions`,
 * one row per push endpoint), the kinds they turned off (`push_opt_outs`, every kind on by default), and the chat
 * room their focused tab shows (`user_presence.focused_room_id`), which keeps that room's pushes away. What is sent,
 * and how, is push-outbox.server.ts.
 */

export class PushError extends DomainError<400 | 404, "subscription_not_found" | "invalid_subscription"> {}

/** A device in its owner's list (never its endpoint or keys). */
export interface PushDevice {
  id: number;
  label: string;
  createdAt: string;
  lastSuccessAt: string | null;
  /** The SHA-256 of its endpoint, cut (pushEndpointTag): the browser tells "this device" by it without the endpoint. */
  endpointTag: string;
}

/** The first 22 characters of the URL-safe base64 SHA-256 of an endpoint (the browser computes the same). */
export const pushEndpointTag = (endpoint: string) => createHash("sha256").update(endpoint).digest("base64url").slice(0, 22);

/**
 * Stores the device's subscription for the user (POST /api/push/subscriptions), or updates it when the endpoint is
 * known: its keys, and its owner when the device is now signed in as someone else (the endpoint is the browser's
 * secret: whoever holds it is that device). Past PUSH_DEVICES_MAX devices the oldest goes. The endpoint is a URL the
 * browser chose that the server will post to: it must be https on a public host (`outbound`, ADR 054), else nothing
 * is stored.
 */
export async function savePushSubscription({
  db,
  userId,
  subscription,
  userAgent,
  outbound,
}: {
  db: Database;
  userId: string;
  subscription: PushSubscriptionInput;
  userAgent: string | null;
  outbound: OutboundPolicy;
}): Promise<PushDevice> {
  const p256dh = Buffer.from(subscription.keys.p256dh, "base64url");
  const auth = Buffer.from(subscription.keys.auth, "base64url");
  // A P-256 public key as an uncompressed point, and a 16-byte secret: anything else cannot be encrypted for.
  if (p256dh.length !== 65 || p256dh[0] !== 4 || auth.length !== 16) throw new PushError(400, "invalid_subscription");
  // Printable ASCII only, as browsers give it: the URL parser would otherwise drop a leading control character.
  if (!/^[\x21-\x7e]+$/.test(subscription.endpoint)) throw new PushError(400, "invalid_subscription");
  try {
    await checkOutboundUrl(subscription.endpoint, outbound);
  } catch (error) {
    if (!(error instanceof OutboundRefusal)) throw error;
    log.info({ event: "push", userId, reason: error.message }, "push: an endpoint that is not a public https host was refused");
    throw new PushError(400, "invalid_subscription");
  }
  return db.transaction().execute(async (trx) => {
    // The user's row held: two devices subscribing at once count against the limit one after the other.
    const user = await trx.selectFrom("users").select("id").where("id", "=", userId).where("deleted_at", "is", null).forUpdate().executeTakeFirst();
    if (!user) throw new PushError(404, "subscription_not_found");
    const before = await trx.selectFrom("push_subscriptions").select(["id", "user_id"]).where("endpoint", "=", subscription.endpoint).forUpdate().executeTakeFirst();
    const row = await trx
      .insertInto("push_subscriptions")
      .values({ user_id: userId, endpoint: subscription.endpoint, p256dh: p256dh.toString("base64url"), auth: auth.toString("base64url"), label: deviceLabel(userAgent) })
      .onConflict((oc) =>
        oc.column("endpoint").doUpdateSet((eb) => ({
          user_id: eb.ref("excluded.user_id"),
          p256dh: eb.ref("excluded.p256dh"),
          auth: eb.ref("excluded.auth"),
          label: eb.ref("excluded.label"),
          // Another person's device now: their history of deliveries is not this one's.
          created_at: sql<Date>`case when push_subscriptions.user_id = excluded.user_id then push_subscriptions.created_at else now() end`,
          last_success_at: sql<Date | null>`case when push_subscriptions.user_id = excluded.user_id then push_subscriptions.last_success_at end`,
        })),
      )
      .returning(["id", "label", "created_at", "last_success_at", "endpoint"])
      .executeTakeFirstOrThrow();
    // What the device's previous owner had waiting for it is theirs, not this user's to see.
    if (before && before.user_id !== userId) await trx.deleteFrom("push_outbox").where("subscription_id", "=", row.id).execute();
    const surplus = await trx
      .selectFrom("push_subscriptions")
      .select("id")
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .offset(PUSH_DEVICES_MAX)
      .limit(1000)
      .execute();
    if (surplus.length) await trx.deleteFrom("push_subscriptions").where("id", "in", surplus.map((old) => old.id)).execute();
    return toDevice(row);
  });
}

const toDevice = (row: { id: number; label: string; created_at: Date; last_success_at: Date | null; endpoint: string }): PushDevice => ({
  id: row.id,
  label: row.label,
  createdAt: row.created_at.toISOString(),
  lastSuccessAt: row.last_success_at?.toISOString() ?? null,
  endpointTag: pushEndpointTag(row.endpoint),
});

/** The user's devices, newest first. */
export async function listPushDevices({ db, userId }: { db: Database; userId: string }): Promise<PushDevice[]> {
  const rows = await db
    .selectFrom("push_subscriptions")
    .select(["id", "label", "created_at", "last_success_at", "endpoint"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toDevice);
}

/** Removes one of the user's devices (「解除」); someone else's, or one gone already, is not found. */
export async function removePushDevice({ db, userId, id }: { db: Database; userId: string; id: number }) {
  const deleted = await db.deleteFrom("push_subscriptions").where("id", "=", id).where("user_id", "=", userId).returning("id").executeTakeFirst();
  if (!deleted) throw new PushError(404, "subscription_not_found");
}

/** Removes the user's device with this endpoint (the device itself turning push off); anyone else's is not found. */
export async function removePushEndpoint({ db, userId, endpoint }: { db: Database; userId: string; endpoint: string }) {
  const deleted = await db.deleteFrom("push_subscriptions").where("endpoint", "=", endpoint).where("user_id", "=", userId).returning("id").executeTakeFirst();
  if (!deleted) throw new PushError(404, "subscription_not_found");
}

/**
 * Forgets every device of the user, with the pushes waiting for them (sign-out everywhere; leaving, in its
 * transaction), and their choices when `preferences` (leaving).
 */
export async function removeAllPushDevices(db: Database, { userId, preferences = false }: { userId: string; preferences?: boolean }) {
  await db.deleteFrom("push_subscriptions").where("user_id", "=", userId).execute();
  if (preferences) await db.deleteFrom("push_opt_outs").where("user_id", "=", userId).execute();
}

/** Whether each kind of push is on for the user, in PUSH_KINDS' order. */
export async function getPushPreferences({ db, userId }: { db: Database; userId: string }): Promise<Record<PushKind, boolean>> {
  const off = await db.selectFrom("push_opt_outs").select("kind").where("user_id", "=", userId).execute();
  const offKinds = new Set(off.map((row) => row.kind));
  return Object.fromEntries(PUSH_KINDS.map((kind) => [kind, !offKinds.has(kind)])) as Record<PushKind, boolean>;
}

/** Turns on exactly the kinds in `enabled` and off every other (the settings form, which lists them all). */
export async function savePushPreferences({ db, userId, enabled }: { db: Database; userId: string; enabled: readonly PushKind[] }) {
  const off = PUSH_KINDS.filter((kind) => !enabled.includes(kind));
  await db.transaction().execute(async (trx) => {
    let removal = trx.deleteFrom("push_opt_outs").where("user_id", "=", userId);
    if (off.length) removal = removal.where("kind", "not in", off);
    await removal.execute();
    if (off.length) {
      await trx
        .insertInto("push_opt_outs")
        .values(off.map((kind) => ({ user_id: userId, kind })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  });
}

/**
 * The user's tab with this socket shows this chat room, focused (`roomId`), or no longer does (null): kept in
 * `user_presence`, which every replica's producers read, so that the room's messages are not pushed to the user
 * meanwhile (ADR 052). The latest focus wins: the user looks at one screen at a time. A blur clears only what this
 * socket said, so a tab losing focus to another that just took it leaves the other's room in place.
 */
export async function setFocusedRoom({ db, userId, socketId, roomId }: { db: Database; userId: string; socketId: string; roomId: string | null }) {
  if (roomId === null) {
    await db
      .updateTable("user_presence")
      .set({ focused_room_id: null, focused_socket: null, focused_at: null })
      .where("user_id", "=", userId)
      .where("focused_socket", "=", socketId)
      .execute();
    return;
  }
  // A user without a presence row yet (their first sign of life) gets one: a focused tab is a sign of life.
  await db
    .insertInto("user_presence")
    .columns(["user_id", "last_seen_at", "focused_room_id", "focused_socket", "focused_at"])
    .expression(
      db
        .selectFrom("users")
        .select([
          "id",
          sql<Date>`now()`.as("last_seen_at"),
          sql<string>`${roomId}::uuid`.as("focused_room_id"),
          sql<string>`${socketId}`.as("focused_socket"),
          sql<Date>`now()`.as("focused_at"),
        ])
        .where("id", "=", userId),
    )
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({
        focused_room_id: sql<string>`excluded.focused_room_id`,
        focused_socket: sql<string>`excluded.focused_socket`,
        focused_at: sql<Date>`excluded.focused_at`,
      }),
    )
    .execute();
}
