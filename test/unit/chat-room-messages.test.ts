import { describe, expect, it } from "vitest";
import { inOrder, markWaiting, oldestStored, pendingMessage, withoutWaiting, type ShownMessage } from "~/routes/_chat.chat.$roomId/shown-messages";

const ROOM = "0b8a2f9c-0000-4000-8000-000000000001";
const VIEWER = "0b8a2f9c-0000-4000-8000-0000000000aa";

const stored = (id: number, overrides: Partial<ShownMessage> = {}): ShownMessage => ({
  id,
  content: `メッセージ${id}`,
  messageType: "TEXT",
  metadata: null,
  chatRoomId: ROOM,
  sender: { uid: "friend", supabaseId: "friend", displayName: "友達", avatar: null },
  createdAt: "2026-11-28T12:00:00.000Z",
  ...overrides,
});

const waiting = (clientId: string, localId: number, content = "送ります") =>
  pendingMessage({ roomId: ROOM, content, clientId }, localId, VIEWER, new Date("2026-11-28T12:00:00Z"));

const ids = (list: ShownMessage[]) => list.map((message) => message.id);

describe("the room's messages on screen", () => {
  it("stored messages come in id order, each once, however they arrived", () => {
    // An event, a refetch and an older page can each bring a message already shown.
    expect(ids(inOrder([stored(3), stored(1), stored(2), stored(3), stored(1)]))).toEqual([1, 2, 3]);
  });

  it("a later copy of a stored message wins (a refetch after it was hidden)", () => {
    const [only] = inOrder([stored(5), stored(5, { hidden: true })]);
    expect(only?.hidden).toBe(true);
  });

  it("messages not stored yet follow the stored ones, in the order typed", () => {
    const list = inOrder([waiting("c-1", -1, "一つ目"), stored(9), waiting("c-2", -2, "二つ目"), stored(4)]);
    expect(list.map((message) => message.content)).toEqual(["メッセージ4", "メッセージ9", "一つ目", "二つ目"]);
  });

  it("a waiting message is shown once, as stored, when its stored copy arrives (answer, event or refetch)", () => {
    const list = inOrder([waiting("c-1", -1), waiting("c-2", -2), stored(10, { clientId: "c-1", sender: { uid: VIEWER, supabaseId: VIEWER, displayName: "私", avatar: null } })]);
    expect(list.map((message) => [message.id, message.clientId, Boolean(message.pending)])).toEqual([
      [10, "c-1", false],
      [-2, "c-2", true],
    ]);
  });

  it("a failed message is still the sender's own copy: it stays after the stored ones until 「再送」 succeeds", () => {
    const failed = markWaiting([waiting("c-1", -1)], "c-1", { pending: false, failed: true });
    expect(ids(inOrder([...failed, stored(2)]))).toEqual([2, -1]);
    expect(ids(inOrder([...failed, stored(2), stored(3, { clientId: "c-1" })]))).toEqual([2, 3]);
  });

  it("the sender's copy is 送信中, has a negative id, and is the viewer's", () => {
    const message = waiting("c-7", -7, "今夜やる？");
    expect(message).toMatchObject({ id: -7, clientId: "c-7", content: "今夜やる？", chatRoomId: ROOM, messageType: "TEXT", pending: true });
    expect(message.sender.uid).toBe(VIEWER);
    expect(message.createdAt).toBe("2026-11-28T12:00:00.000Z");
  });

  it("marking and dropping touch only the waiting copy of that client id, never a stored message", () => {
    const list = [stored(1, { clientId: "c-1" }), waiting("c-1", -1), waiting("c-2", -2)];
    const marked = markWaiting(list, "c-1", { pending: false, failed: true });
    expect(marked.map((message) => [message.id, Boolean(message.failed)])).toEqual([
      [1, false],
      [-1, true],
      [-2, false],
    ]);
    expect(ids(withoutWaiting(list, "c-1"))).toEqual([1, -2]);
    expect(ids(withoutWaiting(list, undefined))).toEqual([1, -1, -2]);
  });

  it("the oldest stored message is where the page before it starts; waiting ones are not", () => {
    expect(oldestStored([waiting("c-1", -1), stored(4), stored(6)])?.id).toBe(4);
    expect(oldestStored([waiting("c-1", -1)])).toBeUndefined();
  });
});
