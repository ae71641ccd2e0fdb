import { COIN_PACKAGES } from "../../app/lib/constants";
import { creditPurchase } from "../../app/models/coins.server";
import { chatStartedNotification, recordNotifications, welcomeNotification } from "../../app/models/notification.server";
import { hashPassword } from "../auth/passwords";
import type { Database, NewGame } from "./schema";

/**
 * Demo data for an empty database, so a newcomer sees a living site. Each feature adds its part
 * here; `SEED=none` skips all of it.
 */
export async function seedDemoData(db: Database, { demoAccounts = false }: { demoAccounts?: boolean } = {}) {
  const passwordHash = demoAccounts ? await hashPassword(DEMO_PASSWORD) : "";
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("games").values(demoGames).onConflict((oc) => oc.column("slug").doNothing()).execute();
    if (!demoAccounts) return;
    const games = new Map((await trx.selectFrom("games").select(["id", "slug"]).execute()).map((game) => [game.slug, game.id]));
    for (const account of DEMO_ACCOUNTS) {
      await trx.insertInto("auth_users").values({ id: account.id, email: account.email, password_hash: passwordHash }).onConflict((oc) => oc.doNothing()).execute();
      await trx
        .insertInto("users")
        .values({ id: account.id, display_name: account.displayName, bio: account.bio })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await trx
        .insertInto("user_games")
        .values(account.games.map(([slug, rank]) => ({ user_id: account.id, game_id: games.get(slug)!, rank })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
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

const DEMO_CONVERSATION: ReadonlyArray<readonly [0 | 1, string]> = [
  [1, "はじめまして！APEXのランク上げを手伝ってもらえませんか？"],
  [0, "もちろんです。今夜21時からどうですか？"],
  [1, "ありがとうございます！よろしくお願いします🙌"],
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
