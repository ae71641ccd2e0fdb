import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { notify, type Notification } from "~/models/notification.server";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { collect, settle, serverWithSockets } from "../support/sockets";

const server = serverWithSockets({ seed: false });
const { socketOf } = server;

const send = (member: Member, ...titles: string[]) =>
  notify(
    { db: server.app.database.db, realtime: server.app.server.realtime },
    ...titles.map((title) => ({ userId: member.id, type: "test", title, body: `${title}の本文`, link: "/mypage" })),
  );

async function list(member: Member, query = "") {
  const response = await member.api(`/api/notifications${query}`);
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.success).toBe(true);
  return body.data as { notifications: Notification[]; unreadCount: number };
}

async function countOnly(member: Member) {
  const body = await (await member.api("/api/notifications?countOnly=true")).json();
  expect(body).toEqual({ success: true, unreadCount: expect.any(Number) });
  return body.unreadCount as number;
}

describe("notify", () => {
  it("stores the notification and sends it to every socket of its user as notification:new", async () => {
    const member = await createMember(server.app, "ミナト");
    const [tab1, tab2] = [await socketOf(member), await socketOf(member)];
    const received = [collect<Notification>(tab1, "notification:new"), collect<Notification>(tab2, "notification:new")];

    const [stored] = await send(member, "予約が入りました");
    await settle();
    for (const events of received) expect(events).toEqual([stored]);
    expect(stored).toMatchObject({ type: "test", title: "予約が入りました", body: "予約が入りましたの本文", link: "/mypage", isRead: false, readAt: null });

    const { notifications } = await list(member);
    expect(notifications[0]).toEqual(stored);
  });

  it("welcomes a user when their profile is first set up, and only then", async () => {
    const member = await createMember(server.app, "ソラ");
    const { notifications } = await list(member);
    expect(notifications).toEqual([expect.objectContaining({ type: "welcome", title: "GamerMatchへようこそ！", link: "/", isRead: false })]);
    // Editing the profile later is not a first setup.
    expect((await member.api("/api/user/profile", { json: { displayName: "ソラ2" } })).status).toBe(200);
    expect((await list(member)).notifications).toHaveLength(1);
  });

  it("tells the other participant when someone opens a new DIRECT chat with them, once", async () => {
    const [alice, bob] = [await createMember(server.app, "アリス"), await createMember(server.app, "ボブ")];
    const bobSocket = await socketOf(bob);
    const toBob = collect<Notification>(bobSocket, "notification:new");
    const open = () => alice.api("/api/chat/rooms", { json: { participantIds: [bob.id], type: "DIRECT", name: null } });

    const roomId = (await (await open()).json()).data.chatRoom.id;
    await settle();
    expect(toBob).toEqual([expect.objectContaining({ type: "chat_room", title: "アリスさんがチャットを始めました", link: `/chat/${roomId}` })]);
    expect((await list(bob)).notifications[0]).toEqual(toBob[0]);
    // The creator gets nothing, and opening the same room again is not news.
    expect((await list(alice)).notifications.map((n) => n.type)).toEqual(["welcome"]);
    await open();
    await settle();
    expect(toBob).toHaveLength(1);
  });
});

describe("GET /api/notifications", () => {
  it("counts the same unread with countOnly as with the list", async () => {
    const member = await createMember(server.app);
    await send(member, "一", "二", "三");
    const listed = await list(member);
    expect(listed.unreadCount).toBe(4); // the welcome, and three
    expect(await countOnly(member)).toBe(listed.unreadCount);
    expect(listed.notifications.filter((n) => !n.isRead)).toHaveLength(listed.unreadCount);
  });

  it("pages newest first, or unread first and then newest with prioritizeUnread=true", async () => {
    const member = await createMember(server.app);
    await server.app.database.db.deleteFrom("notifications").where("user_id", "=", member.id).execute();
    // Oldest first: 古い未読, then 既読1, 既読2 (read), then 新しい未読.
    for (const title of ["古い未読", "既読1", "既読2", "新しい未読"]) {
      await send(member, title);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await server.app.database.db
      .updateTable("notifications")
      .set({ read_at: new Date() })
      .where("user_id", "=", member.id)
      .where("title", "in", ["既読1", "既読2"])
      .execute();

    const newest = await list(member);
    expect(newest.notifications.map((n) => n.title)).toEqual(["新しい未読", "既読2", "既読1", "古い未読"]);
    const unreadFirst = await list(member, "?prioritizeUnread=true");
    expect(unreadFirst.notifications.map((n) => n.title)).toEqual(["新しい未読", "古い未読", "既読2", "既読1"]);
    expect(unreadFirst.unreadCount).toBe(2);

    const pages = [await list(member, "?prioritizeUnread=true&limit=3&offset=0"), await list(member, "?prioritizeUnread=true&limit=3&offset=3")];
    expect(pages.flatMap((page) => page.notifications.map((n) => n.title))).toEqual(["新しい未読", "古い未読", "既読2", "既読1"]);
    expect(pages.map((page) => page.unreadCount)).toEqual([2, 2]);
  });

  it("answers bad input with 400 and a signed-out caller with 401", async () => {
    const member = await createMember(server.app);
    for (const query of ["?limit=0", "?limit=1.5", "?limit=1e400", "?offset=-1", "?prioritizeUnread=maybe", "?countOnly=yes"]) {
      const response = await member.api(`/api/notifications${query}`);
      expect(response.status, query).toBe(400);
      expect((await response.json()).error.message).toBe("入力内容を確認してください");
    }
    expect((await server.app.request("/api/notifications")).status).toBe(401);
    expect((await server.app.request("/api/notifications?countOnly=true")).status).toBe(401);
    expect((await server.app.request("/api/notifications", { method: "PATCH" })).status).toBe(401);
    expect((await member.api("/api/notifications", { method: "POST" })).status).toBe(405);
  });
});

describe("PATCH /api/notifications", () => {
  it("marks all of the caller's notifications read, and nobody else's", async () => {
    const [me, other] = [await createMember(server.app), await createMember(server.app)];
    await send(me, "一", "二");
    await send(other, "他人宛");

    const response = await me.api("/api/notifications", { method: "PATCH" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, data: { updated: 3, unreadCount: 0 } });
    const after = await list(me);
    expect(after.unreadCount).toBe(0);
    expect(after.notifications.every((n) => n.isRead && n.readAt)).toBe(true);
    expect(await countOnly(me)).toBe(0);
    expect(await countOnly(other)).toBe(2);
    // Again: nothing left to mark.
    expect((await (await me.api("/api/notifications", { method: "PATCH" })).json()).data.updated).toBe(0);
  });
});

describe("isolation", () => {
  it("users never see, count or receive each other's notifications", async () => {
    const [alice, eve] = [await createMember(server.app, "アリス"), await createMember(server.app, "イヴ")];
    const eveSocket = await socketOf(eve);
    const toEve = collect(eveSocket, "notification:new");
    const [secret] = await send(alice, "アリスだけの通知");
    await settle();

    expect(toEve).toEqual([]);
    const eves = await list(eve);
    expect(eves.notifications.map((n) => n.id)).not.toContain(secret!.id);
    expect(eves.notifications.map((n) => n.title)).toEqual(["GamerMatchへようこそ！"]);
    expect(await countOnly(eve)).toBe(1);
  });
});

describe("/notifications without JavaScript", () => {
  it("requires a login", async () => {
    const response = await server.app.request("/notifications");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fnotifications");
  });

  it("lists with Tokyo times, marks all read with a plain form and flashes a toast once", async () => {
    const member = await createBrowserMember(server.app, "ハル");
    await send(member, "深夜の通知");
    // 00:30 on the 23rd in Tokyo.
    await sql`update notifications set created_at = '2026-11-22T15:30:00Z' where user_id = ${member.id} and title = '深夜の通知'`.execute(server.app.database.db);

    const page = await (await member.page("/notifications")).text();
    expect(page).toContain("深夜の通知");
    expect(page).toContain("2026/11/23 00:30");
    // The header bell's name starts with the count it shows (axe label-content-name-mismatch).
    expect(page).toContain('aria-label="2件の未読通知"');
    expect(page).toContain('href="/mypage"');
    expect(page).toContain("すべて既読にする");

    const posted = await member.page("/notifications", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe("/notifications");
    expect(member.jar.cookies.has("gm_toast")).toBe(true);

    const after = await member.page("/notifications");
    const html = await after.text();
    expect(html).toContain("すべての通知を既読にしました");
    expect(html).not.toContain("件の未読通知");
    expect(await countOnly(member)).toBe(0);
    // The flash is shown once: the cookie is cleared with that page.
    expect(member.jar.cookies.has("gm_toast")).toBe(false);
    expect(await (await member.page("/notifications")).text()).not.toContain("すべての通知を既読にしました");
  });

  it("pages 20 at a time", async () => {
    const member = await createBrowserMember(server.app);
    await send(member, ...Array.from({ length: 24 }, (_, i) => `通知${i}`));
    const first = await (await member.page("/notifications")).text();
    expect(first.match(/data-testid="unread-dot"/g)).toHaveLength(20);
    expect(first).toContain('href="/notifications?page=1"');
    const second = await (await member.page("/notifications?page=1")).text();
    expect(second.match(/data-testid="unread-dot"/g)).toHaveLength(5);
    expect(second).toContain('href="/notifications"');
  });
});

describe("when notifications cannot be loaded", () => {
  it("pages still render, with no notifications and a zero count (docs/product.md#errors)", async () => {
    const member = await createBrowserMember(server.app, "ナギ");
    await sql`alter table notifications rename to notifications_unavailable`.execute(server.app.database.db);
    try {
      const home = await member.page("/");
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('aria-label="通知"');
      const list = await member.page("/notifications");
      expect(list.status).toBe(200);
      expect(await list.text()).toContain("通知はまだありません。");
    } finally {
      await sql`alter table notifications_unavailable rename to notifications`.execute(server.app.database.db);
    }
  });
});
