import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { ONLINE_WINDOW_MS } from "~/lib/constants";
import { markSeen, onlineUserIds } from "~/models/presence.server";
import { createMember, type Member } from "../support/auth";
import { seenAt } from "../support/presence";
import { collect, settle, serverWithSockets } from "../support/sockets";

const server = serverWithSockets({ seed: false });
const { socketOf } = server;

type Presence = { userId: string; online: boolean };

/** Two members in a DIRECT room; the watcher's socket records every `presence` event. */
async function pair() {
  const [subject, watcher] = [await createMember(server.app, "サブジェクト"), await createMember(server.app, "ウォッチャー")];
  await subject.api("/api/chat/rooms", { json: { participantIds: [watcher.id], type: "DIRECT", name: null } });
  const events = collect<Presence>(await socketOf(watcher), "presence");
  return { subject, watcher, events, about: () => events.filter((event) => event.userId === subject.id) };
}

const heartbeat = (member: Member) => member.api("/api/user/online-status", { method: "POST" });

/** Moves the member's last sign of life into the past, as if that much time had gone by. */
const ageLastSeen = (member: Member, ms: number) =>
  seenAt(server.app.database.db, member.id, sql<Date>`now() - ${sql.lit(`${ms / 1000} seconds`)}::interval`);

/** Whether the watcher's chat list shows the subject online (the green dot's data). */
async function seenOnline(watcher: Member, subject: Member) {
  const { data } = await (await watcher.api("/api/chat/rooms")).json();
  const participant = data.chatRooms
    .flatMap((room: { participants: Array<{ uid: string; online: boolean }> }) => room.participants)
    .find((p: { uid: string }) => p.uid === subject.id);
  return participant.online as boolean;
}

describe("presence", () => {
  it("a heartbeat makes a user online; two minutes without one (and no socket) makes them offline", async () => {
    const { subject, watcher, about } = await pair();
    expect(await seenOnline(watcher, subject)).toBe(false);

    const response = await heartbeat(subject);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, data: { online: true } });
    await settle();
    expect(about()).toEqual([{ userId: subject.id, online: true }]);
    expect(await seenOnline(watcher, subject)).toBe(true);

    // Another heartbeat while online changes nothing anyone needs to hear.
    await ageLastSeen(subject, 60_000);
    await heartbeat(subject);
    await server.app.server.presence.sweep();
    await settle();
    expect(about()).toHaveLength(1);

    // Just under two minutes: still online.
    await ageLastSeen(subject, ONLINE_WINDOW_MS - 5_000);
    await server.app.server.presence.sweep();
    expect(await seenOnline(watcher, subject)).toBe(true);

    // Over two minutes: offline, announced once however often the sweep runs.
    await ageLastSeen(subject, ONLINE_WINDOW_MS + 1_000);
    expect(await seenOnline(watcher, subject)).toBe(false);
    await server.app.server.presence.sweep();
    await server.app.server.presence.sweep();
    await settle();
    expect(about()).toEqual([
      { userId: subject.id, online: true },
      { userId: subject.id, online: false },
    ]);
  });

  it("a connected socket keeps a user online without heartbeats, and its disconnect starts the two minutes", async () => {
    const { subject, watcher, about } = await pair();
    const socket = await socketOf(subject);
    await settle();
    expect(about()).toEqual([{ userId: subject.id, online: true }]);

    // Long after the last heartbeat, the sweep sees the socket and refreshes the user.
    await ageLastSeen(subject, 10 * 60_000);
    await server.app.server.presence.sweep();
    await settle();
    expect(await seenOnline(watcher, subject)).toBe(true);
    expect(about()).toHaveLength(1);

    socket.close();
    // The last socket's close is written (batched, within a second): the two minutes start there.
    await ageLastSeen(subject, 10 * 60_000);
    await settle(1_500);
    expect(await seenOnline(watcher, subject)).toBe(true);
    expect(about()).toHaveLength(1);
    await ageLastSeen(subject, ONLINE_WINDOW_MS + 1_000);
    await server.app.server.presence.sweep();
    await settle();
    expect(await seenOnline(watcher, subject)).toBe(false);
    expect(about().at(-1)).toEqual({ userId: subject.id, online: false });
  });

  it("announces coming online once when heartbeats race", async () => {
    const { subject, about } = await pair();
    const responses = await Promise.all(Array.from({ length: 8 }, () => heartbeat(subject)));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    await settle();
    expect(about()).toEqual([{ userId: subject.id, online: true }]);
  });

  it("tells only people who share a room, and never someone the user blocked", async () => {
    const { subject, watcher, about } = await pair();
    const stranger = await createMember(server.app, "ストレンジャー");
    const toStranger = collect<Presence>(await socketOf(stranger), "presence");
    expect((await subject.api(`/api/users/${watcher.id}/block`, { method: "POST" })).status).toBe(200);

    await heartbeat(subject);
    await settle();
    expect(about()).toEqual([]);
    expect(toStranger.filter((event) => event.userId === subject.id)).toEqual([]);
    // The blocked watcher does not see the dot either.
    expect(await seenOnline(watcher, subject)).toBe(false);
    // The block is one way: the subject still sees the watcher (who has a socket) online.
    expect(await seenOnline(subject, watcher)).toBe(true);
  });

  it("marks everyone with a profile in a batch that also holds an account without one", async () => {
    const { subject } = await pair();
    await ageLastSeen(subject, ONLINE_WINDOW_MS + 1_000);
    // An account that signed in before saving a profile has no `users` row: its socket is marked with the others.
    const withoutProfile = crypto.randomUUID();
    const { db } = server.app.database;
    await markSeen({ db, realtime: server.app.server.realtime, userIds: [withoutProfile, subject.id] });
    const presence = await db.selectFrom("user_presence").select("user_id").where("user_id", "in", [withoutProfile, subject.id]).execute();
    expect(presence).toEqual([{ user_id: subject.id }]);
    expect(await onlineUserIds({ db, viewerId: null, userIds: [subject.id] })).toEqual(new Set([subject.id]));
  });

  it("refuses a heartbeat without a session", async () => {
    expect((await server.app.request("/api/user/online-status", { method: "POST" })).status).toBe(401);
  });
});
