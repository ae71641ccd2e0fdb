import type { Transaction } from "kysely";
import { DateTime } from "luxon";
import sharp from "sharp";
import { hashPassword } from "../../app/infra/auth/passwords";
import type { DB, Database, NewGame } from "../../app/infra/db/schema";
import type { ImageStorage } from "../../app/infra/storage";
import { COIN_PACKAGES } from "../../app/lib/constants";
import { ACCEPT_DEADLINE_MS, DEFAULT_PLATFORM_FEE_PERCENT, DISPLAY_TIME_ZONE } from "../../app/lib/constants";
import { creditPurchase, holdInEscrow, refundEscrow, releaseEscrow, transfer } from "../../app/models/coins.server";
import { chatStartedNotification, recordNotifications, welcomeNotification } from "../../app/models/notification.server";
import { storeImage } from "../../app/models/uploads.server";

/**
 * Demo data for an empty database, so a newcomer sees a living site. Each feature adds its part
 * here; `SEED=none` skips all of it.
 */
export async function seedDemoData(db: Database, { demoAccounts = false, storage }: { demoAccounts?: boolean; storage?: ImageStorage } = {}) {
  if (demoAccounts && !storage) throw new Error("seeding demo accounts needs the image storage (their avatars and posts)");
  const passwordHash = demoAccounts ? await hashPassword(DEMO_PASSWORD) : "";
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("games").values(demoGames).onConflict((oc) => oc.column("slug").doNothing()).execute();
    const games = new Map((await trx.selectFrom("games").select(["id", "slug"]).execute()).map((game) => [game.slug, game.id]));
    // Communities need no accounts: they are there in production too, with members once people join.
    const communities = await seedDemoCommunities(trx, games);
    // Events are there in production too; their demo participants only with the demo accounts, once those exist.
    if (!demoAccounts) return seedDemoEvents(trx, { withParticipants: false });
    for (const account of DEMO_ACCOUNTS) {
      await trx.insertInto("auth_users").values({ id: account.id, email: account.email, password_hash: passwordHash, email_confirmed_at: new Date() }).onConflict((oc) => oc.doNothing()).execute();
      await trx
        .insertInto("users")
        .values({ id: account.id, display_name: account.displayName, bio: account.bio, email: account.email })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await trx
        .insertInto("user_games")
        .values(account.games.map(([slug, rank]) => ({ user_id: account.id, game_id: games.get(slug)!, rank })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await seedDemoEvents(trx, { withParticipants: true });
    // Each demo account has bought coins once (test provider), so the header and coin history show something.
    for (const [index, account] of DEMO_ACCOUNTS.entries()) {
      const pack = COIN_PACKAGES[[2, 4, 1][index] ?? 0]!;
      const order = await trx
        .insertInto("coin_orders")
        .values({ user_id: account.id, package_id: pack.id, coins: pack.coins, price_jpy: pack.price, provider: "test", status: "paid", idempotency_key: "demo-seed", settled_at: new Date() })
        .onConflict((oc) => oc.doNothing())
        .returning("id")
        .executeTakeFirst();
      if (order) await creditPurchase(trx, { userId: account.id, coins: pack.coins, reference: `coin_order:${order.id}` });
    }
    await seedDemoTickets(trx, games);
    await seedDemoSellers(trx, games, passwordHash);
    await seedDemoPosts(trx, storage!);
    await seedDemoCommunityMembers(trx, communities);
    // A conversation between the first two, so /chat is not empty for a newcomer.
    const [minato, sora] = DEMO_ACCOUNTS;
    const room = await trx
      .insertInto("chat_rooms")
      .values({ type: "DIRECT", direct_key: [minato.id, sora.id].sort().join(":") })
      .onConflict((oc) => oc.column("direct_key").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!room) return;
    await trx.insertInto("chat_participants").values([minato, sora].map((account) => ({ room_id: room.id, user_id: account.id }))).execute();
    await trx
      .insertInto("chat_messages")
      .values(DEMO_CONVERSATION.map(([from, content]) => ({ room_id: room.id, sender_id: from === 0 ? minato.id : sora.id, content })))
      .execute();
    // What a real first day leaves in the bell: the welcome, and Sora having started the chat with Minato.
    await recordNotifications(trx, [
      ...DEMO_ACCOUNTS.map((account) => welcomeNotification(account.id)),
      chatStartedNotification({ userId: minato.id, byName: sora.displayName, roomId: room.id }),
    ]);
  });
}

/**
 * Listings in several games, and bookings between the demo accounts in every state, so ticket registration,
 * ticket management and the schedule show something on a fresh start. The coins move through the ledger.
 */
async function seedDemoTickets(trx: Transaction<DB>, games: Map<string, number>) {
  const [minato, sora, haru] = DEMO_ACCOUNTS;
  const listings = await trx
    .insertInto("listings")
    .values(
      DEMO_LISTINGS.map(([seller, slug, title, description, price, minutes, maxUnits]) => ({
        seller_id: DEMO_ACCOUNTS[seller].id,
        game_id: games.get(slug)!,
        title,
        description,
        price_per_unit: price,
        minutes_per_unit: minutes,
        max_units: maxUnits,
      })),
    )
    .returning(["id", "seller_id", "title", "price_per_unit", "minutes_per_unit"])
    .execute();
  const now = Date.now();
  const hour = 3600_000;
  const at = (offset: number) => new Date(Math.floor((now + offset) / (15 * 60_000)) * 15 * 60_000);
  // An evening in Japan, `days` from today: when people actually play.
  const evening = (days: number, hourOfDay: number) =>
    DateTime.fromMillis(now, { zone: DISPLAY_TIME_ZONE }).plus({ days }).set({ hour: hourOfDay, minute: 0, second: 0, millisecond: 0 }).toJSDate();
  const book = async (listingIndex: number, buyer: { id: string }, units: number, createdAgo: number, desiredStart: Date) => {
    const listing = listings[listingIndex]!;
    const created = new Date(now - createdAgo);
    const booking = await trx
      .insertInto("bookings")
      .values({
        listing_id: listing.id,
        buyer_id: buyer.id,
        seller_id: listing.seller_id,
        title: listing.title,
        price_per_unit: listing.price_per_unit,
        minutes_per_unit: listing.minutes_per_unit,
        units,
        total_price: listing.price_per_unit * units,
        total_minutes: listing.minutes_per_unit * units,
        desired_start_at: desiredStart,
        accept_deadline_at: new Date(created.getTime() + ACCEPT_DEADLINE_MS),
        idempotency_key: `demo-seed-${listingIndex}-${buyer.id}`,
        created_at: created,
        updated_at: created,
      })
      .returning(["id", "total_minutes"])
      .executeTakeFirstOrThrow();
    await holdInEscrow(trx, { payerId: buyer.id, payeeId: listing.seller_id, amount: listing.price_per_unit * units, reference: `booking:${booking.id}` });
    return booking;
  };
  // Waiting for Minato to accept.
  await book(0, sora, 1, 2 * hour, evening(2, 21));
  // Accepted: on both schedules tomorrow.
  const accepted = await book(1, haru, 1, 20 * hour, evening(1, 22));
  await trx.updateTable("bookings").set({ status: "accepted", accepted_at: new Date(now - 19 * hour) }).where("id", "=", accepted.id).execute();
  // In progress right now: Haru coaching Sora.
  const playing = await book(4, sora, 2, 26 * hour, at(-10 * 60_000));
  await trx
    .updateTable("bookings")
    .set({
      status: "in_progress",
      accepted_at: new Date(now - 25 * hour),
      started_at: at(-10 * 60_000),
      ends_at: new Date(at(-10 * 60_000).getTime() + playing.total_minutes * 60_000),
      seller_checked_in_at: at(-10 * 60_000),
      buyer_checked_in_at: at(-8 * 60_000),
    })
    .where("id", "=", playing.id)
    .execute();
  // Completed two days ago: Sora was paid, less the fee.
  const done = await book(2, minato, 1, 72 * hour, at(-50 * hour));
  await trx
    .updateTable("bookings")
    .set({
      status: "completed",
      accepted_at: new Date(now - 70 * hour),
      started_at: at(-50 * hour),
      ends_at: new Date(at(-50 * hour).getTime() + done.total_minutes * 60_000),
      completed_at: new Date(at(-50 * hour).getTime() + done.total_minutes * 60_000),
      completed_by: "buyer",
    })
    .where("id", "=", done.id)
    .execute();
  await releaseEscrow(trx, { reference: `booking:${done.id}`, feePercent: DEFAULT_PLATFORM_FEE_PERCENT });
  // Both reviewed it; Minato tipped 100 coins.
  const reviews = await trx
    .insertInto("reviews")
    .values([
      { booking_id: done.id, reviewer_id: minato.id, reviewee_id: sora.id, rating: 5, comment: "立ち回りを丁寧に教えてもらえました。また遊びたいです！", tip_amount: 100 },
      { booking_id: done.id, reviewer_id: sora.id, reviewee_id: minato.id, rating: 4, comment: "時間どおりに来てくれて楽しかったです。", tip_amount: 0 },
    ])
    .returning(["id", "tip_amount"])
    .execute();
  await transfer(trx, { fromId: minato.id, toId: sora.id, amount: 100, purpose: "tip", reference: `review:${reviews[0]!.id}`, feePercent: DEFAULT_PLATFORM_FEE_PERCENT });
  // Cancelled by the seller before it started: refunded.
  const cancelled = await book(3, haru, 1, 40 * hour, evening(3, 20));
  await trx
    .updateTable("bookings")
    .set({ status: "cancelled", cancelled_at: new Date(now - 30 * hour), cancelled_by: "seller", cancel_reason: "seller" })
    .where("id", "=", cancelled.id)
    .execute();
  await refundEscrow(trx, { reference: `booking:${cancelled.id}` });
}

/**
 * More sellers (issue 16), so explore, game pages and home have people in every game on a fresh start: each with a
 * profile, games and one or two listings (none is shown online: only real presence does that). Each bought coins once and booked the next seller's first listing, completed and reviewed, so ratings
 * come from real bookings whose coins moved through the ledger.
 */
async function seedDemoSellers(trx: Transaction<DB>, games: Map<string, number>, passwordHash: string) {
  const now = Date.now();
  const hour = 3600_000;
  const sellers = DEMO_SELLERS.map((seller, index) => ({ ...seller, id: `00000000-0000-4000-8000-${String(101 + index).padStart(12, "0")}` }));
  const firstListings: Array<{ id: string; price: number; minutes: number; title: string }> = [];
  for (const [index, seller] of sellers.entries()) {
    const inserted = await trx.insertInto("auth_users").values({ id: seller.id, email: seller.email, password_hash: passwordHash, email_confirmed_at: new Date() }).onConflict((oc) => oc.doNothing()).returning("id").executeTakeFirst();
    if (!inserted) return; // seeded before
    await trx
      .insertInto("users")
      .values({ id: seller.id, display_name: seller.displayName, bio: seller.bio, email: seller.email })
      .execute();
    await trx.insertInto("user_games").values(seller.listings.map(([slug, , , , , rank]) => ({ user_id: seller.id, game_id: games.get(slug)!, rank }))).onConflict((oc) => oc.doNothing()).execute();
    const listings = await trx
      .insertInto("listings")
      .values(
        seller.listings.map(([slug, title, price, minutes, maxUnits], listingIndex) => ({
          seller_id: seller.id,
          game_id: games.get(slug)!,
          title,
          description: seller.bio,
          price_per_unit: price,
          minutes_per_unit: minutes,
          max_units: maxUnits,
          created_at: new Date(now - (index * 7 + listingIndex + 1) * hour),
        })),
      )
      .returning(["id", "price_per_unit", "minutes_per_unit", "title"])
      .execute();
    firstListings.push({ id: listings[0]!.id, price: listings[0]!.price_per_unit, minutes: listings[0]!.minutes_per_unit, title: listings[0]!.title });
    const pack = COIN_PACKAGES[2]!; // 3,000 coins: enough for any first listing above
    const order = await trx
      .insertInto("coin_orders")
      .values({ user_id: seller.id, package_id: pack.id, coins: pack.coins, price_jpy: pack.price, provider: "test", status: "paid", idempotency_key: "demo-seed", settled_at: new Date(now - 10 * 24 * hour) })
      .returning("id")
      .executeTakeFirstOrThrow();
    await creditPurchase(trx, { userId: seller.id, coins: pack.coins, reference: `coin_order:${order.id}` });
  }
  // Each seller (buyer) booked the next one's first listing a few days ago; completed, reviewed with the listed stars.
  for (const [index, buyer] of sellers.entries()) {
    const sellerIndex = (index + 1) % sellers.length;
    const listing = firstListings[sellerIndex]!;
    const seller = sellers[sellerIndex]!;
    const startedAt = new Date(Math.floor((now - (index + 2) * 24 * hour) / hour) * hour);
    const endsAt = new Date(startedAt.getTime() + listing.minutes * 60_000);
    const created = new Date(startedAt.getTime() - 24 * hour);
    const booking = await trx
      .insertInto("bookings")
      .values({
        listing_id: listing.id,
        buyer_id: buyer.id,
        seller_id: seller.id,
        title: listing.title,
        price_per_unit: listing.price,
        minutes_per_unit: listing.minutes,
        units: 1,
        total_price: listing.price,
        total_minutes: listing.minutes,
        desired_start_at: startedAt,
        accept_deadline_at: new Date(created.getTime() + ACCEPT_DEADLINE_MS),
        idempotency_key: `demo-seed-seller-${index}`,
        created_at: created,
        updated_at: endsAt,
        status: "completed",
        accepted_at: new Date(created.getTime() + hour),
        started_at: startedAt,
        ends_at: endsAt,
        completed_at: endsAt,
        completed_by: "buyer",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await holdInEscrow(trx, { payerId: buyer.id, payeeId: seller.id, amount: listing.price, reference: `booking:${booking.id}` });
    await releaseEscrow(trx, { reference: `booking:${booking.id}`, feePercent: DEFAULT_PLATFORM_FEE_PERCENT });
    await trx
      .insertInto("reviews")
      .values({ booking_id: booking.id, reviewer_id: buyer.id, reviewee_id: seller.id, rating: seller.stars, comment: seller.review, created_at: endsAt })
      .execute();
  }
}

/** Listing: [game, title, coins per slot, minutes per slot, max slots, the seller's rank in that game]. */
type DemoSellerListing = readonly [string, string, number, number, number, string];
const DEMO_SELLERS: ReadonlyArray<{ email: string; displayName: string; bio: string; stars: number; review: string; listings: ReadonlyArray<DemoSellerListing> }> = [
  { email: "aoi@demo.gamermatch.jp", displayName: "あおい", bio: "Apexプレデター経験あり。キャラコンから教えます。", stars: 5, review: "説明がわかりやすかったです！", listings: [["apex-legends", "プレデター帯のキャラコン講座", 2000, 60, 2, "プレデター"], ["apex-legends", "カジュアルでまったりデュオ", 100, 30, 4, "プレデター"]] },
  { email: "ren@demo.gamermatch.jp", displayName: "レン", bio: "VALORANTのIGL。報告と立ち回りを一緒に整理します。", stars: 4, review: "報告のコツがつかめました。", listings: [["valorant", "IGL目線で立ち回りレビュー", 1000, 60, 3, "イモータル"], ["valorant", "アンレートで一緒に遊びましょう", 300, 30, 4, "イモータル"]] },
  { email: "mio@demo.gamermatch.jp", displayName: "澪（みお）", bio: "スプラはXマッチ中心。リッター使いです。", stars: 5, review: "楽しく教えてもらえました。", listings: [["splatoon-3", "Xマッチ対策とリッター講座", 500, 60, 3, "XP2800"]] },
  { email: "kaito@demo.gamermatch.jp", displayName: "カイト", bio: "スト6はジュリ使い。モダンも教えられます。", stars: 3, review: "対戦数が多くて練習になりました。", listings: [["street-fighter-6", "ジュリ対策とランクマ同行", 500, 30, 4, "マスター"], ["street-fighter-6", "モダン操作の基礎を一緒に", 300, 60, 2, "マスター"]] },
  { email: "hinata@demo.gamermatch.jp", displayName: "ひなた", bio: "モンハンは全武器使えます。初心者さん大歓迎。", stars: 5, review: "優しくて安心して遊べました。", listings: [["monster-hunter-wilds", "はじめてのモンハン、最初の狩りまで案内", 300, 90, 2, "HR200"], ["monster-hunter-wilds", "歴戦個体の周回お手伝い", 500, 60, 3, "HR200"]] },
  { email: "sho@demo.gamermatch.jp", displayName: "翔", bio: "ユナイトのタンク専。連携の練習をしましょう。", stars: 4, review: "連携の練習ができました。", listings: [["pokemon-unite", "タンク視点のマップ講座", 300, 30, 4, "マスター"]] },
  { email: "rin@demo.gamermatch.jp", displayName: "りん", bio: "フォートナイトの建築バトルが好き。ゼロビルドも。", stars: 5, review: "建築がうまくなりました！", listings: [["fortnite", "建築練習と1v1", 500, 30, 4, "チャンピオン"], ["fortnite", "ゼロビルドでのんびりスクワッド", 100, 60, 3, "チャンピオン"]] },
  { email: "yuto@demo.gamermatch.jp", displayName: "Yuto", bio: "LoLはジャングル。ダイヤ帯でソロキュー中。", stars: 4, review: "ジャングルの回り方がわかりました。", listings: [["league-of-legends", "ジャングルのルート講座", 1000, 60, 2, "ダイヤ"], ["league-of-legends", "ARAMで気軽に遊ぼう", 100, 30, 6, "ダイヤ"]] },
  { email: "sakura@demo.gamermatch.jp", displayName: "さくら", bio: "Apexとヴァロをエンジョイ勢で。夜に遊べます。", stars: 5, review: "時間どおりで楽しかったです。", listings: [["apex-legends", "エンジョイ勢でトリオ", 100, 60, 3, "プラチナ"], ["valorant", "コンペ一緒に回します（ゴールド帯）", 300, 60, 3, "ゴールド"]] },
  { email: "takumi@demo.gamermatch.jp", displayName: "タクミ", bio: "スプラとスト6の二刀流。初心者向けのコーチング。", stars: 4, review: "基礎から丁寧でした。", listings: [["splatoon-3", "ナワバリ初心者の立ち回り", 100, 30, 4, "S+"], ["street-fighter-6", "スト6 初心者の対空練習", 1000, 30, 2, "ダイヤ"]] },
];

/** [seller index, game, title, description, coins per slot, minutes per slot, max slots] */
const DEMO_LISTINGS: ReadonlyArray<readonly [0 | 1 | 2, string, string, string, number, number, number]> = [
  [0, "apex-legends", "ランク上げ手伝います（ダイヤ帯まで）", "ボイスチャットあり。立ち回りのコツも教えます。", 500, 60, 4],
  [0, "valorant", "VALORANT エイム練習に付き合います", "デスマッチとカスタムでエイム練習。初心者歓迎。", 300, 30, 4],
  [1, "splatoon-3", "スプラ3 オープンでのんびりバトル", "22時以降が中心です。ガチでもエンジョイでも。", 300, 60, 3],
  [1, "pokemon-unite", "ユナイト ランクマッチ一緒に回しましょう", "サポート中心で動きます。", 500, 30, 6],
  [2, "street-fighter-6", "スト6 コーチング（モダン・クラシック）", "対戦しながら弱点と練習メニューをお伝えします。", 1000, 30, 4],
];

const DEMO_CONVERSATION: ReadonlyArray<readonly [0 | 1, string]> = [
  [1, "はじめまして！APEXのランク上げを手伝ってもらえませんか？"],
  [0, "もちろんです。今夜21時からどうですか？"],
  [1, "ありがとうございます！よろしくお願いします🙌"],
];

/**
 * Avatars and posts of the demo accounts, some with a picture. The pictures are drawn here (SVG rendered by sharp) and
 * stored through the same path as an upload, so a fresh start downloads nothing.
 */
async function seedDemoPosts(trx: Transaction<DB>, storage: ImageStorage) {
  const picture = async (userId: string, kind: "post" | "avatar", svg: string) =>
    storeImage({ db: trx, storage, userId, kind, bytes: await sharp(Buffer.from(svg)).png().toBuffer() });
  for (const [index, account] of DEMO_ACCOUNTS.entries()) {
    const avatar = await picture(account.id, "avatar", avatarSvg(DEMO_COLOURS[index]!));
    await trx.updateTable("users").set({ avatar_url: avatar.url }).where("id", "=", account.id).execute();
  }
  const now = Date.now();
  for (const [index, [author, content, scene]] of DEMO_POSTS.entries()) {
    const account = DEMO_ACCOUNTS[author];
    const image = scene === null ? null : await picture(account.id, "post", sceneSvg(scene));
    await trx
      .insertInto("posts")
      // Oldest first, a few hours apart, the newest an hour ago.
      .values({ author_id: account.id, content, upload_id: image?.id ?? null, created_at: new Date(now - (DEMO_POSTS.length - index) * 5 * 3600_000) })
      .execute();
  }
}

const DEMO_COLOURS = [
  ["#7c3aed", "#22d3ee"],
  ["#f97316", "#facc15"],
  ["#0f172a", "#ef4444"],
] as const;

const avatarSvg = ([from, to]: readonly [string, string]) => `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="256" height="256" fill="url(#g)"/><circle cx="128" cy="104" r="48" fill="#fff" fill-opacity=".85"/>
  <ellipse cx="128" cy="236" rx="84" ry="64" fill="#fff" fill-opacity=".85"/></svg>`;

/** A game-screen-like picture: a sky, hills, a sun and a few "players" in one colour scheme per scene. */
const sceneSvg = (scene: number) => {
  const [sky, ground, accent] = DEMO_SCENES[scene % DEMO_SCENES.length]!;
  const players = Array.from({ length: 4 }, (_, i) => `<circle cx="${220 + i * 190}" cy="${470 - (i % 2) * 40}" r="22" fill="${accent}" stroke="#fff" stroke-width="6"/>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675">
  <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky}"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs>
  <rect width="1200" height="675" fill="url(#s)"/><circle cx="960" cy="150" r="80" fill="${accent}" fill-opacity=".7"/>
  <path d="M0 520 Q300 380 600 500 T1200 470 V675 H0 Z" fill="${ground}"/>${players}</svg>`;
};
const DEMO_SCENES = [
  ["#1e3a8a", "#166534", "#f59e0b"],
  ["#7c2d12", "#57534e", "#22d3ee"],
  ["#581c87", "#0f766e", "#f472b6"],
  ["#0c4a6e", "#365314", "#facc15"],
] as const;

/** Author (index into DEMO_ACCOUNTS), text, and the scene of its picture (null: text only). */
const DEMO_POSTS: ReadonlyArray<readonly [0 | 1 | 2, string | null, number | null]> = [
  [0, "今シーズンもソロでマスター到達しました！\nランク上げ手伝えるので気軽にチケットどうぞ。", 0],
  [1, "スプラのフェス、みんなどっち派？", null],
  [2, "スト6の練習会やります。モダン操作の人も大歓迎です。", 1],
  [1, null, 2],
  [0, "VALORANTの新マップ、ミッドの取り方が難しい…", null],
  [2, "今日のコーチングで教えた対空のコツをまとめました。\n・早めに屈む\n・飛びを見てから押す", 3],
  [1, "ユナイトのデュオ相手募集中です！夜22時以降なら毎日います🌙", null],
];

/** Two or three communities for each popular game; answers the ids of those it created, by slug. */
async function seedDemoCommunities(trx: Transaction<DB>, games: Map<string, number>) {
  const created = new Map<string, string>();
  for (const [slug, gameSlug, name, description] of DEMO_COMMUNITIES) {
    const community = await trx
      .insertInto("communities")
      .values({ slug, name, description, game_id: games.get(gameSlug)! })
      .onConflict((oc) => oc.column("slug").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (community) created.set(slug, community.id);
  }
  return created;
}

/** The demo accounts as members of the new communities (the count set to match) and a few posts tagged with them. */
async function seedDemoCommunityMembers(trx: Transaction<DB>, communities: Map<string, string>) {
  const now = Date.now();
  for (const [slug, , , , members] of DEMO_COMMUNITIES) {
    const id = communities.get(slug);
    if (!id) continue;
    await trx.updateTable("communities").set({ members_count: members.length }).where("id", "=", id).execute();
    await trx
      .insertInto("community_members")
      .values(members.map((member, index) => ({ community_id: id, user_id: DEMO_ACCOUNTS[member].id, joined_at: new Date(now - (index + 1) * 86_400_000) })))
      .execute();
    for (const [index, [author, content]] of DEMO_COMMUNITY_POSTS.filter(([, , community]) => community === slug).entries()) {
      await trx
        .insertInto("posts")
        .values({ author_id: DEMO_ACCOUNTS[author].id, content, community_id: id, created_at: new Date(now - (index * 7 + 2) * 3600_000) })
        .execute();
    }
  }
}

const DEMO_COMMUNITIES: ReadonlyArray<readonly [string, string, string, string, ReadonlyArray<0 | 1 | 2>]> = [
  ["apex-ranked", "apex-legends", "Apexランク部", "ランクを一緒に盛りたい人の集まり。プラチナ帯からマスター帯まで歓迎です。", [0, 1]],
  ["apex-casual", "apex-legends", "Apexエンジョイ勢", "カジュアルやミックステープでゆるく遊びましょう。初心者歓迎。", [0]],
  ["valorant-coaching", "valorant", "VALORANT上達会", "エイム練習と定点の共有。コーチングの感想もどうぞ。", [0, 2]],
  ["valorant-night", "valorant", "VALORANT夜活", "夜22時以降にフルパを組みたい人向け。", [0]],
  ["splatoon-fes", "splatoon-3", "スプラ フェス部", "フェスやオープンを一緒に回る仲間を探す場所です。", [1]],
  ["splatoon-salmon", "splatoon-3", "サーモンラン同好会", "カンスト目指して野良でも固定でも。", [1, 0]],
  ["sf6-modern", "street-fighter-6", "スト6 モダン操作の会", "モダン操作の研究と対戦会。クラシックの人も大歓迎。", [2, 1]],
  ["sf6-lounge", "street-fighter-6", "スト6 ラウンジ", "ルームマッチの募集とリプレイの相談に。", [2]],
  ["unite-duo", "pokemon-unite", "ユナイト デュオ募集", "デュオ・フルパの相方探しに。", [1]],
];

/** Author (index into DEMO_ACCOUNTS), text, and the community (slug) it is tagged with. */
const DEMO_COMMUNITY_POSTS: ReadonlyArray<readonly [0 | 1 | 2, string, string]> = [
  [0, "今夜21時からランク回します。プラチナ以上の方ぜひ！", "apex-ranked"],
  [1, "昨日のランク、最終円の立ち回りが課題でした…", "apex-ranked"],
  [2, "ヘイヴンのAサイト、煙の定点をまとめました。", "valorant-coaching"],
  [1, "今回のフェス、一緒に100倍マッチ狙いませんか？", "splatoon-fes"],
  [2, "土曜の夜にモダン限定の対戦会をやります。", "sf6-modern"],
  [1, "デュオで夜22時から回せる方募集中です🌙", "unite-duo"],
];

/** Demo accounts (README lists them). Only on the local auth server, and never in production unless allowed. */
export const DEMO_PASSWORD = "gamermatch-demo";
export const DEMO_ACCOUNTS = [
  {
    id: "00000000-0000-4000-8000-000000000001",
    email: "minato@demo.gamermatch.jp",
    displayName: "みなと",
    bio: "APEXはソロマスター。初心者のランク上げ手伝います。",
    games: [["apex-legends", "マスター"], ["valorant", "ダイヤ"]],
  },
  {
    id: "00000000-0000-4000-8000-000000000002",
    email: "sora@demo.gamermatch.jp",
    displayName: "そら",
    bio: "スプラとポケモンユナイトをのんびり。夜22時以降によく遊んでます。",
    games: [["splatoon-3", "S+"], ["pokemon-unite", "マスター"]],
  },
  {
    id: "00000000-0000-4000-8000-000000000003",
    email: "haru@demo.gamermatch.jp",
    displayName: "ハル",
    bio: "格ゲー勢。スト6のコーチングやってます。",
    games: [["street-fighter-6", "マスター"]],
  },
] as const satisfies ReadonlyArray<{ id: string; email: string; displayName: string; bio: string; games: ReadonlyArray<readonly [string, string]> }>;

const demoGames: NewGame[] = [
  { slug: "apex-legends", name: "Apex Legends", name_kana: "エーペックスレジェンズ", sort_order: 1 },
  { slug: "valorant", name: "VALORANT", name_kana: "ヴァロラント", sort_order: 2 },
  { slug: "splatoon-3", name: "スプラトゥーン3", name_kana: "スプラトゥーンスリー", sort_order: 3 },
  { slug: "street-fighter-6", name: "ストリートファイター6", name_kana: "ストリートファイターシックス", sort_order: 4 },
  { slug: "monster-hunter-wilds", name: "モンスターハンターワイルズ", name_kana: "モンスターハンターワイルズ", sort_order: 5 },
  { slug: "pokemon-unite", name: "ポケモンユナイト", name_kana: "ポケモンユナイト", sort_order: 6 },
  { slug: "fortnite", name: "フォートナイト", name_kana: "フォートナイト", sort_order: 7 },
  { slug: "league-of-legends", name: "League of Legends", name_kana: "リーグ・オブ・レジェンド", sort_order: 8 },
];

/**
 * Events (issue 16): a few upcoming in several games (one starting within the hour, so the reminder can be seen) and
 * one that is over, with the demo accounts as participants when there are demo accounts (events are public content,
 * so a production start gets them too, empty). Times are relative to the seed time, on Japanese evenings.
 */
async function seedDemoEvents(trx: Transaction<DB>, { withParticipants }: { withParticipants: boolean }) {
  if (await trx.selectFrom("events").select("id").limit(1).executeTakeFirst()) return;
  const games = new Map((await trx.selectFrom("games").select(["id", "slug"]).execute()).map((game) => [game.slug, game.id]));
  const now = Date.now();
  const hour = 3600_000;
  const evening = (days: number, hourOfDay: number) =>
    DateTime.fromMillis(now, { zone: DISPLAY_TIME_ZONE }).plus({ days }).set({ hour: hourOfDay, minute: 0, second: 0, millisecond: 0 }).toJSDate();
  const soon = new Date(Math.ceil((now + 45 * 60_000) / (15 * 60_000)) * 15 * 60_000);
  const events: Array<{ slug: string; title: string; description: string; startsAt: Date; hours: number; capacity: number; participants: number[] }> = [
    { slug: "apex-legends", title: "Apex Legends 初心者歓迎カスタムマッチ", description: "ランク不問のカスタムマッチです。\nボイスチャットは任意、気軽にどうぞ。", startsAt: soon, hours: 2, capacity: 30, participants: [0, 1] },
    { slug: "valorant", title: "VALORANT 5vs5 交流戦", description: "ダイヤ帯以上の方向け。チームはその場で組みます。", startsAt: evening(2, 21), hours: 2, capacity: 10, participants: [0] },
    { slug: "splatoon-3", title: "スプラトゥーン3 プライベートマッチ大会", description: "ナワバリとガチエリアを交互に遊びます。", startsAt: evening(4, 20), hours: 3, capacity: 8, participants: [1, 2] },
    { slug: "street-fighter-6", title: "スト6 ラウンジ対戦会", description: "勝ち残り形式。初心者も上級者も歓迎です。", startsAt: evening(6, 21), hours: 2, capacity: 16, participants: [2] },
    { slug: "monster-hunter-wilds", title: "モンハンワイルズ 素材集め周回会", description: "みんなで周回しましょう。", startsAt: evening(-3, 21), hours: 2, capacity: 4, participants: [0, 2] },
  ];
  for (const event of events) {
    const { id } = await trx
      .insertInto("events")
      .values({
        game_id: games.get(event.slug)!,
        title: event.title,
        description: event.description,
        starts_at: event.startsAt,
        ends_at: new Date(event.startsAt.getTime() + event.hours * hour),
        capacity: event.capacity,
        participants_count: withParticipants ? event.participants.length : 0,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (!withParticipants) continue;
    await trx
      .insertInto("event_participants")
      .values(event.participants.map((index) => ({ event_id: id, user_id: DEMO_ACCOUNTS[index]!.id, joined_at: new Date(Math.min(now, event.startsAt.getTime()) - hour), reminded_at: event.startsAt.getTime() < now ? event.startsAt : null })))
      .execute();
  }
}
