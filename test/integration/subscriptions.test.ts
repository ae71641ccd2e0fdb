import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { SUBSCRIPTION_PERIOD_MS, SUBSCRIPTION_REMINDER_BEFORE_MS } from "~/lib/constants";
import { ledgerProblems } from "~/models/coins.server";
import { listPosts } from "~/models/posts.server";
import { subscriptionReminderJob } from "~/models/subscriptions.server";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { collect, serverWithSockets, settle } from "../support/sockets";

/**
 * Subscriptions through the real server (docs/product.md#data, #roles, #api; docs/product.md#data, #coins), on whichever engine the run
 * uses: plans, paying through the ledger, renewing from the current expiry, the refusals, subscriber-only posts
 * everywhere posts appear, and the reminder sent once.
 */

const server = serverWithSockets({ seed: false });
const db = () => server.app.database.db;
const DAY = 24 * 3600_000;

const buyCoins = async (member: Member, packageId: number) =>
  expect((await member.api("/api/coins/orders", { json: { packageId }, headers: { "Idempotency-Key": randomUUID() } })).status).toBe(201);
const setPlan = (member: Member, monthlyPrice: number, description = "限定の攻略メモ") =>
  member.api("/api/store/subscription-plan", { method: "PUT", json: { monthlyPrice, description } });
const subscribeTo = (member: Member, subscribeeId: string, key: string = randomUUID()) =>
  member.api("/api/subscriptions", { json: { subscribeeId }, headers: { "Idempotency-Key": key } });
const wallet = async (member: Member) => {
  const row = await db().selectFrom("coin_wallets").select(["purchased", "earned"]).where("user_id", "=", member.id).executeTakeFirst();
  return { purchased: row?.purchased ?? 0, earned: row?.earned ?? 0 };
};
const errorOf = async (response: Response) => (await response.json()).error as { code: string; message: string };

/** A creator with a plan of 500 coins and a fan with 1,000 coins. */
async function creatorAndFan() {
  const [creator, fan] = await Promise.all([createMember(server.app, "クリエイター"), createMember(server.app, "ファン")]);
  expect((await setPlan(creator, 500)).status).toBe(200);
  await buyCoins(fan, 2);
  return { creator, fan };
}

describe("plans", () => {
  it("PUT sets and changes the plan (slider steps from 100); GET reads it; DELETE withdraws it", async () => {
    const seller = await createMember(server.app, "プランの人");
    expect((await (await seller.api("/api/store/subscription-plan")).json()).data.plan).toBeNull();
    for (const monthlyPrice of [0, 50, 150, 60_000, "abc"]) {
      const refused = await seller.api("/api/store/subscription-plan", { method: "PUT", json: { monthlyPrice } });
      expect(refused.status, String(monthlyPrice)).toBe(400);
    }
    const set = await setPlan(seller, 300, "  毎週の配信アーカイブ  ");
    expect((await set.json()).data.plan).toMatchObject({ sellerId: seller.id, monthlyPrice: 300, description: "毎週の配信アーカイブ" });
    await setPlan(seller, 1000);
    expect((await (await seller.api("/api/store/subscription-plan")).json()).data.plan.monthlyPrice).toBe(1000);
    expect((await seller.api("/api/store/subscription-plan", { method: "DELETE" })).status).toBe(200);
    expect((await (await seller.api("/api/store/subscription-plan")).json()).data.plan).toBeNull();
    expect((await server.app.request("/api/store/subscription-plan")).status).toBe(401);
  });
});

describe("POST /api/subscriptions", () => {
  it("subscribes for 30 days through the ledger (less the fee); renewing extends from the current expiry; the creator is notified", async () => {
    const { creator, fan } = await creatorAndFan();
    const heard = collect(await server.socketOf(creator), "notification:new");
    const before = Date.now();
    const first = await subscribeTo(fan, creator.id);
    expect(first.status).toBe(201);
    const { subscription } = (await first.json()).data;
    expect(subscription).toMatchObject({ subscribee: { uid: creator.id }, active: true, monthlyPrice: 500 });
    const expires = Date.parse(subscription.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + SUBSCRIPTION_PERIOD_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + SUBSCRIPTION_PERIOD_MS);
    expect(await wallet(fan)).toEqual({ purchased: 500, earned: 0 });
    expect(await wallet(creator)).toEqual({ purchased: 0, earned: 400 });

    const renewed = await subscribeTo(fan, creator.id);
    expect(renewed.status).toBe(201);
    expect(Date.parse((await renewed.json()).data.subscription.expiresAt)).toBe(expires + SUBSCRIPTION_PERIOD_MS);
    expect(await wallet(fan)).toEqual({ purchased: 0, earned: 0 });
    expect(await wallet(creator)).toEqual({ purchased: 0, earned: 800 });
    const rows = await db().selectFrom("subscriptions").selectAll().where("subscriber_id", "=", fan.id).execute();
    expect(rows).toHaveLength(1);
    const payments = await db().selectFrom("subscription_payments").select("id").where("subscriber_id", "=", fan.id).execute();
    const ledger = await db().selectFrom("coin_transactions").select(["kind", "user_id", "amount", "fee"]).where("reference", "=", `subscription:${payments[0]!.id}`).orderBy("id").execute();
    expect(ledger).toEqual([
      { kind: "subscription", user_id: fan.id, amount: -500, fee: 0 },
      { kind: "subscription_income", user_id: creator.id, amount: 400, fee: 100 },
    ]);
    await settle();
    expect(heard).toEqual([expect.objectContaining({ type: "subscription", title: "ファンさんがサブスクしました" }), expect.objectContaining({ type: "subscription" })]);

    // GET /api/user/subscriptions and /api/auth/me (active only).
    const listed = await (await fan.api("/api/user/subscriptions")).json();
    expect(listed).toMatchObject({ success: true, subscriptions: [{ subscribee: { uid: creator.id }, expiresAt: new Date(expires + SUBSCRIPTION_PERIOD_MS).toISOString(), active: true }] });
    const me = await (await fan.api("/api/auth/me")).json();
    expect(me.data.subscriptions).toEqual([expect.objectContaining({ subscribee: expect.objectContaining({ uid: creator.id }) })]);
    expect(await ledgerProblems(db())).toEqual([]);
  });

  it("an expired subscription renews from now, not from its old expiry", async () => {
    const { creator, fan } = await creatorAndFan();
    await subscribeTo(fan, creator.id);
    await db().updateTable("subscriptions").set({ expires_at: new Date(Date.now() - 5 * DAY) }).where("subscriber_id", "=", fan.id).execute();
    expect((await (await fan.api("/api/auth/me")).json()).data.subscriptions).toEqual([]);
    expect((await (await fan.api("/api/user/subscriptions")).json()).subscriptions).toEqual([expect.objectContaining({ active: false })]);
    const before = Date.now();
    const renewed = await (await subscribeTo(fan, creator.id)).json();
    expect(Date.parse(renewed.data.subscription.expiresAt)).toBeGreaterThanOrEqual(before + SUBSCRIPTION_PERIOD_MS);
  });

  it("the same Idempotency-Key pays once (200 with the same subscription); concurrent ones too; another subscribee with it 409", async () => {
    const { creator, fan } = await creatorAndFan();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => subscribeTo(fan, creator.id, key)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(new Set(bodies.map((b) => b.data.subscription.expiresAt)).size).toBe(1);
    expect(await wallet(fan)).toEqual({ purchased: 500, earned: 0 });
    const other = await createMember(server.app, "別のクリエイター");
    await setPlan(other, 100);
    const conflict = await subscribeTo(fan, other.id, key);
    expect(conflict.status).toBe(409);
    expect((await subscribeTo(fan, creator.id, "")).status).toBe(400);
    expect(await ledgerProblems(db())).toEqual([]);
  });

  it("refuses: too few coins 422, yourself 422, no plan 404, someone who blocked you 403, anonymous 401; none writes anything", async () => {
    const { creator, fan } = await creatorAndFan();
    const pricey = await createMember(server.app, "高いクリエイター");
    await setPlan(pricey, 2000);
    const poor = await subscribeTo(fan, pricey.id);
    expect(poor.status).toBe(422);
    expect(await errorOf(poor)).toMatchObject({ code: "insufficient_coins", message: "コインが足りません" });
    expect((await errorOf(await subscribeTo(creator, creator.id))).code).toBe("self_subscription");
    const planless = await createMember(server.app, "プランなし");
    const none = await subscribeTo(fan, planless.id);
    expect(none.status).toBe(404);
    expect((await errorOf(none)).message).toBe("このユーザーはサブスクプランを提供していません");
    await creator.api(`/api/users/${fan.id}/block`, { method: "POST" });
    const blocked = await subscribeTo(fan, creator.id);
    expect(blocked.status).toBe(403);
    const anonymous = await server.app.request("/api/subscriptions", { method: "POST", headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() }, body: JSON.stringify({ subscribeeId: creator.id }) });
    expect(anonymous.status).toBe(401);
    expect(await db().selectFrom("subscriptions").select("id").where("subscriber_id", "=", fan.id).execute()).toEqual([]);
    expect(await wallet(fan)).toEqual({ purchased: 1000, earned: 0 });
    expect(await ledgerProblems(db())).toEqual([]);
  });
});

describe("subscriber-only posts", () => {
  async function lockedPostWithImage(creator: Member) {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#f43f5e" } }).png().toBuffer();
    const form = new FormData();
    form.set("type", "post");
    form.set("subscribersOnly", "true");
    form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "secret.png");
    const upload = await server.app.request("/api/uploads", { method: "POST", body: form, headers: { Authorization: `Bearer ${creator.token}` } });
    const url = (await upload.json()).data.url as string;
    const created = await creator.api("/api/posts/create", { json: { content: "サブスク限定の攻略", imageUrl: url, isPublic: false } });
    expect(created.status).toBe(201);
    return { post: (await created.json()).post as { id: string }, url };
  }

  it("open to an active subscriber; locked for others in the feed, profile, gallery and API; locked again once expired", async () => {
    const { creator, fan } = await creatorAndFan();
    const stranger = await createBrowserMember(server.app, "通りすがり");
    const { post, url } = await lockedPostWithImage(creator);

    const viewAs = async (member: Member | null, path: string) => (member ? member.api(path) : server.app.request(path));
    const apiPost = async (member: Member | null) => (await (await viewAs(member, `/api/posts/${post.id}`)).json()).post;
    expect(await apiPost(stranger)).toMatchObject({ locked: true, content: null, imageUrl: null, hasImage: true });
    expect(await apiPost(null)).toMatchObject({ locked: true, content: null });
    expect(await apiPost(creator)).toMatchObject({ locked: false, content: "サブスク限定の攻略", imageUrl: url });

    for (const path of ["/feed", `/u/${creator.id}/posts`, `/u/${creator.id}/gallery`]) {
      const html = await (await stranger.page(path)).text();
      expect(html, path).toContain("サブスク限定の投稿です");
      expect(html, path).not.toContain("サブスク限定の攻略");
      expect(html, path).not.toContain(url);
    }
    expect((await stranger.page(`/u/${creator.id}/gallery?photo=${post.id}`)).status).toBe(404);

    await subscribeTo(fan, creator.id);
    expect(await apiPost(fan)).toMatchObject({ locked: false, content: "サブスク限定の攻略", imageUrl: url });
    const listed = await (await fan.api(`/api/posts?authorId=${creator.id}&withImage=1`)).json();
    expect(listed.data.posts).toEqual([expect.objectContaining({ id: post.id, locked: false, imageUrl: url })]);
    expect(await apiPost(stranger)).toMatchObject({ locked: true });

    // The clock moved past the expiry: access ends at once (model and API).
    const { expires_at } = await db().selectFrom("subscriptions").select("expires_at").where("subscriber_id", "=", fan.id).executeTakeFirstOrThrow();
    const later = await listPosts({ db: db(), viewerId: fan.id, authorId: creator.id, limit: 10, now: new Date(expires_at.getTime() + 1) });
    expect(later.posts).toEqual([expect.objectContaining({ id: post.id, locked: true, content: null, image: null })]);
    const justBefore = await listPosts({ db: db(), viewerId: fan.id, authorId: creator.id, limit: 10, now: new Date(expires_at.getTime() - 1) });
    expect(justBefore.posts[0]).toMatchObject({ locked: false });
    await db().updateTable("subscriptions").set({ expires_at: new Date(Date.now() - 1000) }).where("subscriber_id", "=", fan.id).execute();
    expect(await apiPost(fan)).toMatchObject({ locked: true, content: null });
  });
});

describe("the reminder 3 days before the expiry", () => {
  it("is sent once, when two sweepers race, and again for the next expiry after a renewal", async () => {
    const { creator, fan } = await creatorAndFan();
    await subscribeTo(fan, creator.id);
    // Two more fans whose subscriptions end a moment later: one run reminds all three (a batch, not one a run).
    const others = await Promise.all([createMember(server.app, "ファン2"), createMember(server.app, "ファン3")]);
    for (const other of others) {
      await buyCoins(other, 1);
      await subscribeTo(other, creator.id);
    }
    const { expires_at } = await db().selectFrom("subscriptions").select("expires_at").where("subscriber_id", "=", fan.id).executeTakeFirstOrThrow();
    const remindersOf = (userId: string) =>
      db().selectFrom("notifications").selectAll().where("user_id", "=", userId).where("type", "=", "subscription_expiring").execute();
    const reminders = () => remindersOf(fan.id);
    const run = (now: Date) => subscriptionReminderJob.run({ db: db(), realtime: server.app.server.realtime, now });

    await run(new Date(expires_at.getTime() - SUBSCRIPTION_REMINDER_BEFORE_MS - 1));
    expect(await reminders()).toHaveLength(0);
    const due = new Date(expires_at.getTime() - SUBSCRIPTION_REMINDER_BEFORE_MS + 60_000);
    await Promise.all([run(due), run(due), run(due)]);
    const sent = await reminders();
    expect(sent).toHaveLength(1);
    for (const other of others) expect(await remindersOf(other.id)).toHaveLength(1);
    expect(sent[0]).toMatchObject({ title: "クリエイターさんのサブスクがまもなく終了します", link: `/u/${creator.id}/subscribe` });
    await run(new Date(expires_at.getTime() - 1000));
    expect(await reminders()).toHaveLength(1);

    await buyCoins(fan, 1);
    await subscribeTo(fan, creator.id);
    await run(new Date(expires_at.getTime() + SUBSCRIPTION_PERIOD_MS - SUBSCRIPTION_REMINDER_BEFORE_MS + 1000));
    expect(await reminders()).toHaveLength(2);
  });
});

describe("the pages without JavaScript", () => {
  it("plan page → profile → confirmation (its key in the URL) → paid once even when posted twice", async () => {
    const creator = await createBrowserMember(server.app, "フォームのクリエイター");
    const fan = await createBrowserMember(server.app, "フォームのファン");
    await buyCoins(fan, 2);
    const form = (fields: Record<string, string>) => ({ method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
    const saved = await creator.page("/settings/store/subscription", form({ monthlyPrice: "300", description: "限定配信" }));
    expect(saved.status).toBe(302);
    expect(await (await fan.page(`/u/${creator.id}`)).text()).toContain("300コイン / 30日");
    const first = await fan.page(`/u/${creator.id}/subscribe`);
    expect(first.status).toBe(302);
    const confirmation = first.headers.get("Location")!;
    expect(confirmation).toMatch(new RegExp(`^/u/${creator.id}/subscribe\\?key=[0-9a-f-]{36}$`));
    const page = await (await fan.page(confirmation)).text();
    expect(page).toContain("300コインでサブスクする");
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(page)![1]!;
    const paid = await fan.page(confirmation, form({ idempotencyKey: key }));
    expect(paid.status).toBe(302);
    expect(paid.headers.get("Location")).toBe(`/u/${creator.id}/posts`);
    const again = await fan.page(confirmation, form({ idempotencyKey: key }));
    expect(again.status).toBe(302);
    expect(await wallet(fan)).toEqual({ purchased: 700, earned: 0 });
    const settings = await (await fan.page("/settings/subscription")).text();
    expect(settings).toContain("フォームのクリエイター");
    expect(settings).toContain("サブスク中");
  });
});
