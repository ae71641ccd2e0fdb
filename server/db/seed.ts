import type { Database, NewGame } from "./schema";

/**
 * Demo data for an empty database, so a newcomer sees a living site. Each feature adds its part
 * here; `SEED=none` skips all of it.
 */
export async function seedDemoData(db: Database) {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("games").values(demoGames).onConflict((oc) => oc.column("slug").doNothing()).execute();
  });
}

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
