import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_DIGEST_INTERVAL_MS, CHAT_DIGEST_MESSAGES_MAX, MAIL_KINDS, MAIL_OFFLINE_AFTER_MS, type MailKind } from "~/lib/constants";
import { bookingReminderJob } from "~/models/bookings/sweeper.server";
import { chatDigestJob } from "~/models/chat-digest.server";
import { creditPurchase, transfer } from "~/models/coins.server";
import { recordNotifications } from "~/models/notification.server";
import { decidePayout, requestPayout } from "~/models/payouts.server";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { testEngine } from "../support/database";
import { startTestMailServer, type ReceivedMail, type TestMailServer } from "../support/mail";
import { startTestServer, type TestServer } from "../support/server";
import { seenAt } from "../support/presence";
import { TEST_OPERATOR } from "../support/operators";

/**
 * Notification mails (docs/product.md#accounts, ADR 029) through the built server and a real SMTP server on loopback:
 * who gets which mail (away for 10 minutes, the kind on, an address), every producer, the unsubscribe link and
 * RFC 8058's one-click POST, `/settings/notifications` as a plain form, and the chat digest (one per room per hour,
 * safe with two sweepers). The server's own sweeper is stopped: the tests run its jobs with the clock they choose.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const GAME = "mail-test-game";

let smtp: TestMailServer;
let app: TestServer;
const db = () => app.database.db;

beforeAll(async () => {
  smtp = await startTestMailServer();
  app = await startTestServer({ seed: false, env: { SMTP_URL: smtp.url } });
  await app.server.sweeper.stop();
  await db().insertInto("games").values({ slug: GAME, name: "メールテスト", name_kana: "めーるてすと" }).execute();
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const addressOf = async (member: { id: string }) => (await db().selectFrom("users").select("email").where("id", "=", member.id).executeTakeFirstOrThrow()).email!;
const outbox = (member: { id: string }, kind: string) =>
  db().selectFrom("mail_outbox").selectAll().where("user_id", "=", member.id).where("kind", "=", kind).orderBy("id").execute();
const optedOut = async (member: { id: string }) =>
  (await db().selectFrom("mail_opt_outs").select("kind").where("user_id", "=", member.id).orderBy("kind").execute()).map((row) => row.kind);
const seenNow = (member: { id: string }) => seenAt(db(), member.id, sql<Date>`now()`);
const credit = (member: { id: string }, coins: number) =>
  db()
    .transaction()
    .execute((trx) => creditPurchase(trx, { userId: member.id, coins, reference: `mail-test:${randomUUID()}` }));
/** The path and query of a link in a mail, on the test server (the mail's host is localhost:<port>). */
const onServer = (link: string) => {
  const url = new URL(link);
  return url.pathname + url.search;
};
const unsubscribeLinkOf = (mail: ReceivedMail) => (mail.headers.get("list") as { unsubscribe: { url: string } }).unsubscribe.url;

async function listingOf(seller: Member, title: string) {
  const response = await seller.api("/api/listings", { json: { title, gameSlug: GAME, description: "", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 4 } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { listing: { id: string } } }).data.listing.id;
}
async function book(buyer: Member, listingId: string, startsInMs = 3 * HOUR) {
  await credit(buyer, 1_000);
  const response = await buyer.api(`/api/listings/${listingId}/purchase`, {
    json: { units: 1, desiredStartTime: Date.now() + startsInMs },
    headers: { "Idempotency-Key": randomUUID() },
  });
  expect(response.ok, await response.clone().text()).toBe(true);
  return ((await response.json()) as { data: { ticket: { id: string } } }).data.ticket.id;
}
async function act(member: Member, bookingId: string, action: string) {
  const response = await member.api(`/api/tickets/${bookingId}/${action}`, { json: {} });
  expect(response.ok, `${action}: ${response.status}`).toBe(true);
}
/** A seller and a buyer, a listing and a booking (pending, starting in `startsInMs`). */
async function bookedPair(label: string, startsInMs?: number) {
  const [seller, buyer] = await Promise.all([createMember(app, `${label}売り手`), createMember(app, `${label}買い手`)]);
  const title = `${label}のチケット`;
  const bookingId = await book(buyer, await listingOf(seller, title), startsInMs);
  return { seller, buyer, title, bookingId };
}

describe(`notification mails (${testEngine})`, () => {
  it("fills users.email from the signed-in account when the profile is set up and saved", async () => {
    const member = await createMember(app, "アドレス確認");
    const { email } = await db().selectFrom("auth_users").select("email").where("id", "=", member.id).executeTakeFirstOrThrow();
    expect(await addressOf(member)).toBe(email);
    await db().updateTable("users").set({ email: null }).where("id", "=", member.id).execute();
    expect((await member.api("/api/user/profile", { json: { displayName: "アドレス確認2" } })).status).toBe(200);
    expect(await addressOf(member)).toBe(email);
  });

  it("mails a seller who is away when their listing is booked, with List-Unsubscribe, One-Click and working links", async () => {
    const { seller, title } = await bookedPair("予約通知");
    const mail = await smtp.waitFor(await addressOf(seller));
    expect(mail.subject).toBe(`【GamerMatch】「${title}」が購入されました`);
    expect(mail.text).toContain("予約通知買い手さん");
    const unsubscribe = unsubscribeLinkOf(mail);
    expect(unsubscribe).toMatch(/\/unsubscribe\?u=[0-9a-f-]{36}&k=booking_requested&s=[\w-]+$/);
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(mail.links).toContain(unsubscribe);
    // The link it is about, and the unsubscribe page (which asks, and changes nothing on its own).
    expect(onServer(mail.links[0]!)).toBe("/settings/ticket-management");
    const page = await app.request(onServer(unsubscribe));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("チケットの予約が入ったとき");
    expect(html).toContain("配信を停止する");
    expect(await optedOut(seller)).toEqual([]);
  });

  it("sends nothing to someone online, or who turned the kind off, and nothing for a rolled-back event", async () => {
    const [online, off] = await Promise.all([createMember(app, "オンライン売り手"), createMember(app, "停止済み売り手")]);
    const buyer = await createMember(app, "買い手");
    await seenNow(online);
    await db().insertInto("mail_opt_outs").values({ user_id: off.id, kind: "booking_requested" }).execute();
    await book(buyer, await listingOf(online, "オンラインのチケット"));
    await book(buyer, await listingOf(off, "停止済みのチケット"));
    // Seen 10 minutes ago counts as away again.
    await seenAt(db(), online.id, new Date(Date.now() - MAIL_OFFLINE_AFTER_MS - 1_000));
    await book(buyer, await listingOf(online, "しばらく前のチケット"));
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await recordNotifications(trx, [{ userId: off.id, type: "booking", title: "取り消される", mail: "booking_accepted" }]);
          throw new Error("the event failed");
        }),
    ).rejects.toThrow("the event failed");
    const mail = await smtp.waitFor(await addressOf(online));
    expect(mail.subject).toContain("しばらく前のチケット");
    expect(await outbox(online, "booking_requested")).toHaveLength(1);
    expect(await outbox(off, "booking_requested")).toEqual([]);
    expect(await outbox(off, "booking_accepted")).toEqual([]);
    // Each notification is in the bell all the same.
    const bells = await db().selectFrom("notifications").select("user_id").where("user_id", "in", [online.id, off.id]).where("type", "=", "booking").execute();
    expect(bells).toHaveLength(3);
  });

  it("mails each kind: accepted, cancelled, the start reminder an hour before (once), a review received and a payout decided", async () => {
    // Accepted, then cancelled by the buyer: the buyer hears of the acceptance, the seller of the cancellation.
    const first = await bookedPair("承認");
    await act(first.seller, first.bookingId, "accept");
    const accepted = await smtp.waitFor(await addressOf(first.buyer));
    expect(accepted.subject).toBe(`【GamerMatch】「${first.title}」が承認されました`);
    expect(unsubscribeLinkOf(accepted)).toContain("k=booking_accepted");
    await act(first.buyer, first.bookingId, "cancel");
    const sellerAddress = await addressOf(first.seller);
    const cancelled = await smtp.waitFor(sellerAddress, { after: 1 });
    expect(cancelled.subject).toBe(`【GamerMatch】「${first.title}」がキャンセルされました`);
    expect(await outbox(first.buyer, "booking_cancelled")).toEqual([]);

    // The reminder: both sides, once, an hour before the start; not before.
    const second = await bookedPair("リマインド", 3 * HOUR);
    await act(second.seller, second.bookingId, "accept");
    const { desired_start_at: start } = await db().selectFrom("bookings").select("desired_start_at").where("id", "=", second.bookingId).executeTakeFirstOrThrow();
    const run = (now: Date) => bookingReminderJob.run({ db: db(), realtime: app.server.realtime, now });
    expect(await run(new Date(start.getTime() - HOUR - MIN))).toBe(0);
    const [one, two] = await Promise.all([run(new Date(start.getTime() - HOUR + MIN)), run(new Date(start.getTime() - HOUR + MIN))]);
    expect(one + two).toBe(1);
    expect(await run(new Date(start.getTime() - 30 * MIN))).toBe(0);
    for (const member of [second.seller, second.buyer]) {
      expect(await outbox(member, "booking_reminder")).toHaveLength(1);
      const reminder = (await smtp.waitFor(await addressOf(member), { after: 1 })).subject;
      expect(reminder).toBe(`【GamerMatch】「${second.title}」がまもなく始まります`);
    }

    // A review received (with a tip, which gives the seller earned coins), then a payout of them decided.
    const third = await bookedPair("レビュー", MIN);
    for (const [member, action] of [[third.seller, "accept"], [third.seller, "start"], [third.buyer, "complete"]] as const) await act(member, third.bookingId, action);
    const review = await third.buyer.api("/api/reviews", { json: { bookingId: third.bookingId, rating: 5, comment: "楽しかった", tipAmount: 0 } });
    expect(review.ok).toBe(true);
    const reviewMail = (await outbox(third.seller, "review_received"))[0];
    expect(reviewMail?.data).toMatchObject({ title: "レビュー買い手さんからレビューが届きました（★5）" });
    await db()
      .transaction()
      .execute(async (trx) => {
        await creditPurchase(trx, { userId: third.buyer.id, coins: 1_000, reference: `mail-test:${randomUUID()}` });
        await transfer(trx, { fromId: third.buyer.id, toId: third.seller.id, amount: 1_000, purpose: "tip", reference: `mail-test-tip:${randomUUID()}`, feePercent: 0 });
      });
    const { payout } = await requestPayout({
      db: db(),
      sellerId: third.seller.id,
      idempotencyKey: randomUUID(),
      input: { coins: 1_000, bankName: "ゲーマー銀行", branchName: "渋谷支店", accountType: "ordinary", accountNumber: "1234567", accountHolder: "ゲーマー タロウ" },
    });
    await decidePayout({ db: db(), operator: TEST_OPERATOR, realtime: app.server.realtime, payoutId: payout.id, decision: "paid" });
    const payoutMails = await outbox(third.seller, "payout_decided");
    expect(payoutMails).toHaveLength(1);
    await expect.poll(async () => smtp.to(await addressOf(third.seller)).map((mail) => unsubscribeLinkOf(mail).match(/k=(\w+)/)![1]).sort()).toEqual([
      "booking_requested",
      "payout_decided",
      "review_received",
    ]);
  });
});

describe(`unsubscribing (${testEngine})`, () => {
  /** A member with a mail in hand: its unsubscribe link for `kind`. */
  async function linkFor(kind: MailKind) {
    const member = await createMember(app, "配信停止");
    await db()
      .transaction()
      .execute((trx) => recordNotifications(trx, [{ userId: member.id, type: "booking", title: `${kind}のお知らせ`, body: "本文", link: "/notifications", mail: kind }]));
    const mail = await smtp.waitFor(await addressOf(member));
    return { member, link: onServer(unsubscribeLinkOf(mail)) };
  }
  const oneClick = (link: string, headers: Record<string, string> = {}) =>
    app.request(link, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers } });

  it("RFC 8058's one-click POST from a mail provider (no cookies, another site's Origin) turns exactly that kind off", async () => {
    const { member, link } = await linkFor("chat_digest");
    const response = await oneClick(link, { Origin: "https://mail.example.com", "Sec-Fetch-Site": "cross-site" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("配信を停止しました");
    expect(await optedOut(member)).toEqual(["chat_digest"]);
    // Again: the same, nothing more.
    expect((await oneClick(link)).status).toBe(200);
    expect(await optedOut(member)).toEqual(["chat_digest"]);
    // Another route's POST from another site is still refused.
    const other = await app.request("/settings/notifications", { method: "POST", body: "kinds=chat_digest", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example.com" } });
    expect(other.status).toBe(403);
  });

  it("the link's page and its button (a plain form POST) turn exactly that kind off; the page alone changes nothing", async () => {
    const { member, link } = await linkFor("review_received");
    const page = await app.request(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("「レビューが届いたとき」のメールの配信を停止します");
    const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/.exec(html)?.[1] ?? /<form[^>]*action="([^"]+)"[^>]*method="post"/.exec(html)?.[1];
    expect(action?.replace(/&amp;/g, "&")).toBe(link);
    expect(await optedOut(member)).toEqual([]);
    const done = await app.request(link, { method: "POST", body: "", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(done.status).toBe(200);
    const doneHtml = await done.text();
    expect(doneHtml).toContain("配信を停止しました");
    expect(doneHtml).toContain('href="/settings/notifications"');
    expect(await optedOut(member)).toEqual(["review_received"]);
  });

  it("a forged, changed or cut link, or an unknown kind, changes nothing and says so in Japanese", async () => {
    const { member, link } = await linkFor("booking_accepted");
    const url = new URL(link, app.url);
    const signature = url.searchParams.get("s")!;
    const variant = (change: (params: URLSearchParams) => void) => {
      const params = new URLSearchParams(url.search);
      change(params);
      return `/unsubscribe?${params}`;
    };
    const forged = [
      variant((p) => p.set("s", `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`)),
      variant((p) => p.set("s", signature.slice(0, 10))),
      variant((p) => p.delete("s")),
      variant((p) => p.set("k", "booking_cancelled")),
      variant((p) => p.set("u", randomUUID())),
    ];
    for (const path of forged) {
      for (const response of [await app.request(path), await oneClick(path)]) {
        expect(response.status, path).toBe(400);
        expect(await response.text()).toContain("このリンクは無効です");
      }
    }
    for (const path of [variant((p) => p.set("k", "newsletter")), variant((p) => p.delete("k"))]) {
      const response = await oneClick(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain("このリンクのお知らせは見つかりません");
    }
    expect(await optedOut(member)).toEqual([]);
  });
});

describe(`/settings/notifications (${testEngine})`, () => {
  it("lists every kind checked by default and switches them with a plain form POST, with a toast", async () => {
    const member = await createBrowserMember(app, "通知設定");
    const page = await (await member.page("/settings/notifications")).text();
    /** The kinds whose checkbox the page renders checked. */
    const checked = (html: string) => (html.match(/<input[^>]*name="kinds"[^>]*>/g) ?? []).filter((input) => / checked=""/.test(input)).map((input) => /value="(\w+)"/.exec(input)![1]);
    expect(checked(page)).toEqual([...MAIL_KINDS]);
    expect(page).toContain(await addressOf(member));

    const save = (kinds: string[]) =>
      member.page("/settings/notifications", {
        method: "POST",
        body: new URLSearchParams(kinds.map((kind) => ["kinds", kind])),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        redirect: "manual",
      });
    const saved = await save(["booking_requested", "payout_decided"]);
    expect([302, 303]).toContain(saved.status);
    expect(saved.headers.get("location")).toBe("/settings/notifications");
    expect(await optedOut(member)).toEqual(["booking_accepted", "booking_cancelled", "booking_reminder", "chat_digest", "review_received"]);
    const after = await (await member.page("/settings/notifications")).text();
    expect(after).toContain("通知メールの設定を保存しました");
    expect(checked(after)).toEqual(["booking_requested", "payout_decided"]);

    await save([]);
    expect(await optedOut(member)).toEqual([...MAIL_KINDS].sort());
    await save(["chat_digest"]);
    expect(await optedOut(member)).toEqual([...MAIL_KINDS].filter((kind) => kind !== "chat_digest").sort());
    await save([...MAIL_KINDS]);
    expect(await optedOut(member)).toEqual([]);

    const refused = await save(["chat_digest", "newsletter"]);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("入力内容を確認してください");
    expect(await optedOut(member)).toEqual([]);
  });

  it("is behind sign-in", async () => {
    const response = await app.request("/settings/notifications");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fsettings%2Fnotifications");
  });
});

describe(`the chat digest (${testEngine})`, () => {
  const digest = (now = new Date()) => chatDigestJob.run({ db: db(), now });
  async function roomOf(from: Member, to: Member) {
    const response = await from.api("/api/chat/rooms", { json: { participantIds: [to.id], type: "DIRECT", name: null } });
    return ((await response.json()) as { data: { chatRoom: { id: string } } }).data.chatRoom.id;
  }
  async function say(from: Member, roomId: string, ...contents: string[]) {
    for (const content of contents) {
      const response = await from.api("/api/chat/messages", { json: { roomId, content } });
      expect(response.ok).toBe(true);
    }
  }
  const digestsOf = async (member: Member, roomId?: string) =>
    (await outbox(member, "chat_digest")).filter((row) => roomId === undefined || row.topic === roomId);
  /** Where the digest stands for a member of a room (migration 0024), beside the room's newest message. */
  const markOf = async (member: Member, roomId: string) => {
    const mark = await db()
      .selectFrom("chat_participants")
      .select(["digested_message_id", "digested_at"])
      .where("room_id", "=", roomId)
      .where("user_id", "=", member.id)
      .executeTakeFirstOrThrow();
    const newest = await db().selectFrom("chat_messages").select((eb) => eb.fn.max("id").as("id")).where("room_id", "=", roomId).executeTakeFirstOrThrow();
    return { looked: Number(mark.digested_message_id), newest: Number(newest.id), digestedAt: mark.digested_at };
  };
  /** Whether the room is still pending for the digest: a member not settled up to its newest message. */
  const pending = async (roomId: string) => {
    const room = await db().selectFrom("chat_rooms").select(["last_message_id", "digest_settled_id"]).where("id", "=", roomId).executeTakeFirstOrThrow();
    return Number(room.last_message_id) > Number(room.digest_settled_id);
  };

  it("sends one digest per room within the hour, another room its own, and a second after an hour only for newer messages", async () => {
    const [reader, friend, other] = await Promise.all([createMember(app, "読む人"), createMember(app, "ともだち"), createMember(app, "べつの人")]);
    const room = await roomOf(friend, reader);
    await say(friend, room, "こんにちは", "今日あそべる？", "21時からどう？\n2行目", ...Array.from({ length: CHAT_DIGEST_MESSAGES_MAX }, (_, i) => `メッセージ${i + 1}`));
    const firstAt = new Date();
    expect(await digest(firstAt)).toBeGreaterThanOrEqual(1);
    const [first] = await digestsOf(reader, room);
    // The mark moved to the room's newest message, at the sweeper's time: the next sweep does not look at the reader
    // here until a newer message, and an hour has passed.
    expect(await markOf(reader, room)).toEqual({ looked: (await markOf(reader, room)).newest, newest: expect.any(Number), digestedAt: firstAt });
    const total = 3 + CHAT_DIGEST_MESSAGES_MAX;
    expect(first!.data).toMatchObject({ title: `ともだちさんから未読のメッセージが${total}件あります`, link: `/chat/${room}` });
    const mail = await smtp.waitFor(await addressOf(reader));
    expect(mail.subject).toBe(`【GamerMatch】ともだちさんから未読のメッセージが${total}件あります`);
    // The newest messages quoted, with the sender and the time in Tokyo, the rest counted.
    expect(mail.text).toMatch(/\[\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}\] ともだち: メッセージ5/);
    expect(mail.text).not.toContain("こんにちは");
    expect(mail.text).toContain("ほか3件の未読メッセージがあります。");
    expect(unsubscribeLinkOf(mail)).toContain("k=chat_digest");
    expect(onServer(mail.links[0]!)).toBe(`/chat/${room}`);
    // The sender gets none (they have read their own messages).
    expect(await digestsOf(friend)).toEqual([]);

    // More messages within the hour: nothing; another room: its own digest.
    await say(friend, room, "まだ？");
    await digest();
    expect(await digestsOf(reader, room)).toHaveLength(1);
    const room2 = await roomOf(other, reader);
    await say(other, room2, "はじめまして");
    await digest();
    expect(await digestsOf(reader, room2)).toHaveLength(1);
    expect((await digestsOf(reader, room2))[0]!.data).toMatchObject({ title: "べつの人さんから未読のメッセージが1件あります" });
    expect(await digestsOf(reader)).toHaveLength(2);

    // An hour on, the unread message sent after the first digest brings a second one; room 2 has nothing newer.
    const later = new Date(Date.now() + CHAT_DIGEST_INTERVAL_MS + MIN);
    await digest(later);
    expect(await digestsOf(reader, room)).toHaveLength(2);
    expect((await digestsOf(reader, room))[1]!.data).toMatchObject({ title: `ともだちさんから未読のメッセージが${total + 1}件あります` });
    expect(await digestsOf(reader, room2)).toHaveLength(1);
    await digest(new Date(later.getTime() + CHAT_DIGEST_INTERVAL_MS + MIN));
    expect(await digestsOf(reader)).toHaveLength(3);
    await smtp.waitFor(await addressOf(reader), { after: 2 });
  });

  it("sends none to a member online, one who read the room, one who turned digests off, nor of a blocked person's messages", async () => {
    const [online, reads, off, blocker, sender, blocked] = await Promise.all(
      ["オンライン", "既読", "停止", "ブロックした人", "送る人", "ブロックされた人"].map((name) => createMember(app, name)),
    );
    await seenNow(online);
    await db().insertInto("mail_opt_outs").values({ user_id: off.id, kind: "chat_digest" }).execute();
    for (const member of [online, reads, off]) await say(sender, await roomOf(sender, member), "こんばんは");
    const readRoom = await roomOf(sender, reads);
    expect((await reads.api(`/api/chat/rooms/${readRoom}/mark-read`, { json: {} })).ok).toBe(true);
    const blockedRoom = await roomOf(blocked, blocker);
    await say(blocked, blockedRoom, "ねえ");
    expect((await blocker.api(`/api/users/${blocked.id}/block`, { json: {} })).ok).toBe(true);
    await digest();
    for (const member of [online, reads, off, blocker]) expect(await digestsOf(member)).toEqual([]);
    // The blocker was looked at: the blocked person's message moved their mark, without a digest, so the next sweep
    // does not count it again. The member online was not looked at: their turn comes once they are away.
    const blockerMark = await markOf(blocker, blockedRoom);
    expect(blockerMark).toMatchObject({ looked: blockerMark.newest, digestedAt: null });
    expect(await pending(blockedRoom)).toBe(false);
    // Nor the member who turned digests off, once: their room is settled too.
    const offRoom = await roomOf(sender, off);
    expect(await markOf(off, offRoom)).toMatchObject({ looked: (await markOf(off, offRoom)).newest });
    expect(await pending(offRoom)).toBe(false);
    const onlineRoom = await roomOf(sender, online);
    expect(await markOf(online, onlineRoom)).toMatchObject({ looked: 0, digestedAt: null });
    expect(await pending(onlineRoom)).toBe(true);
    // In a group, the blocked person's messages are neither counted nor quoted.
    const group = await blocker.api("/api/chat/rooms", { json: { participantIds: [blocked.id, sender.id], type: "GROUP", name: "週末部" } });
    const groupId = ((await group.json()) as { data: { chatRoom: { id: string } } }).data.chatRoom.id;
    await say(blocked, groupId, "ブロックされた発言");
    await say(sender, groupId, "集合は21時");
    await digest();
    const [row] = await digestsOf(blocker, groupId);
    expect(row!.data).toMatchObject({ title: "送る人さんから未読のメッセージが1件あります" });
    expect(String(row!.data.body)).toContain("「週末部」のメッセージ");
    expect(String(row!.data.body)).not.toContain("ブロックされた発言");
    // Away for 10 minutes, the member who was online gets the digest of what came meanwhile.
    await digest(new Date(Date.now() + MAIL_OFFLINE_AFTER_MS + MIN));
    expect((await digestsOf(online)).map((digest) => digest.data)).toMatchObject([{ title: "送る人さんから未読のメッセージが1件あります" }]);
    expect(await pending(onlineRoom)).toBe(false);
  });

  it("two sweepers at once write one digest per room", async () => {
    const [reader, friend] = await Promise.all([createMember(app, "同時の読む人"), createMember(app, "同時のともだち")]);
    const rooms = [await roomOf(friend, reader)];
    const more = await Promise.all(Array.from({ length: 3 }, () => createMember(app, "ほかのともだち")));
    for (const member of more) rooms.push(await roomOf(member, reader));
    await say(friend, rooms[0]!, "同時に");
    for (const [index, member] of more.entries()) await say(member, rooms[index + 1]!, "同時に");
    // Connections open beforehand, so the sweepers' transactions start together rather than one per new connection.
    await Promise.all(Array.from({ length: 4 }, () => sql`select pg_sleep(0.05)`.execute(db())));
    const now = new Date();
    await Promise.all([digest(now), digest(now), digest(now), digest(now)]);
    await Promise.all([digest(now), digest(now)]);
    const rows = await digestsOf(reader);
    expect(rows.map((row) => row.topic).sort()).toEqual([...rooms].sort());
    await expect.poll(async () => smtp.to(await addressOf(reader)).length).toBe(rooms.length);
  });
});
