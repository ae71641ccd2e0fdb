import type { NewGame } from "../../../app/infra/db/tables";

/**
 * The demo data as data: the accounts (README lists them), games, listings and bookings, sellers, a conversation, posts, communities
 * and events that an empty database is seeded with. The writers beside this file put them in through the models.
 */

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

export const DEMO_GAMES: NewGame[] = [
  { slug: "apex-legends", name: "Apex Legends", name_kana: "エーペックスレジェンズ", sort_order: 1 },
  { slug: "valorant", name: "VALORANT", name_kana: "ヴァロラント", sort_order: 2 },
  { slug: "splatoon-3", name: "スプラトゥーン3", name_kana: "スプラトゥーンスリー", sort_order: 3 },
  { slug: "street-fighter-6", name: "ストリートファイター6", name_kana: "ストリートファイターシックス", sort_order: 4 },
  { slug: "monster-hunter-wilds", name: "モンスターハンターワイルズ", name_kana: "モンスターハンターワイルズ", sort_order: 5 },
  { slug: "pokemon-unite", name: "ポケモンユナイト", name_kana: "ポケモンユナイト", sort_order: 6 },
  { slug: "fortnite", name: "フォートナイト", name_kana: "フォートナイト", sort_order: 7 },
  { slug: "league-of-legends", name: "League of Legends", name_kana: "リーグ・オブ・レジェンド", sort_order: 8 },
];

/** [seller index, game, title, description, coins per slot, minutes per slot, max slots] */
export const DEMO_LISTINGS: ReadonlyArray<readonly [0 | 1 | 2, string, string, string, number, number, number]> = [
  [0, "apex-legends", "ランク上げ手伝います（ダイヤ帯まで）", "ボイスチャットあり。立ち回りのコツも教えます。", 500, 60, 4],
  [0, "valorant", "VALORANT エイム練習に付き合います", "デスマッチとカスタムでエイム練習。初心者歓迎。", 300, 30, 4],
  [1, "splatoon-3", "スプラ3 オープンでのんびりバトル", "22時以降が中心です。ガチでもエンジョイでも。", 300, 60, 3],
  [1, "pokemon-unite", "ユナイト ランクマッチ一緒に回しましょう", "サポート中心で動きます。", 500, 30, 6],
  [2, "street-fighter-6", "スト6 コーチング（モダン・クラシック）", "対戦しながら弱点と練習メニューをお伝えします。", 1000, 30, 4],
];

export const DEMO_CONVERSATION: ReadonlyArray<readonly [0 | 1, string]> = [
  [1, "はじめまして！APEXのランク上げを手伝ってもらえませんか？"],
  [0, "もちろんです。今夜21時からどうですか？"],
  [1, "ありがとうございます！よろしくお願いします🙌"],
];

/** Listing: [game, title, coins per slot, minutes per slot, max slots, the seller's rank in that game]. */
export type DemoSellerListing = readonly [string, string, number, number, number, string];
export const DEMO_SELLERS: ReadonlyArray<{ email: string; displayName: string; bio: string; stars: number; review: string; listings: ReadonlyArray<DemoSellerListing> }> = [
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

/** Author (index into DEMO_ACCOUNTS), text, and the scene of its picture (null: text only). */
export const DEMO_POSTS: ReadonlyArray<readonly [0 | 1 | 2, string | null, number | null]> = [
  [0, "今シーズンもソロでマスター到達しました！\nランク上げ手伝えるので気軽にチケットどうぞ。", 0],
  [1, "スプラのフェス、みんなどっち派？", null],
  [2, "スト6の練習会やります。モダン操作の人も大歓迎です。", 1],
  [1, null, 2],
  [0, "VALORANTの新マップ、ミッドの取り方が難しい…", null],
  [2, "今日のコーチングで教えた対空のコツをまとめました。\n・早めに屈む\n・飛びを見てから押す", 3],
  [1, "ユナイトのデュオ相手募集中です！夜22時以降なら毎日います🌙", null],
];

export const DEMO_COMMUNITIES: ReadonlyArray<readonly [string, string, string, string, ReadonlyArray<0 | 1 | 2>]> = [
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
export const DEMO_COMMUNITY_POSTS: ReadonlyArray<readonly [0 | 1 | 2, string, string]> = [
  [0, "今夜21時からランク回します。プラチナ以上の方ぜひ！", "apex-ranked"],
  [1, "昨日のランク、最終円の立ち回りが課題でした…", "apex-ranked"],
  [2, "ヘイヴンのAサイト、煙の定点をまとめました。", "valorant-coaching"],
  [1, "今回のフェス、一緒に100倍マッチ狙いませんか？", "splatoon-fes"],
  [2, "土曜の夜にモダン限定の対戦会をやります。", "sf6-modern"],
  [1, "デュオで夜22時から回せる方募集中です🌙", "unite-duo"],
];

/**
 * Events: a few upcoming in several games (one starting within the hour, so the reminder can be seen) and one that is
 * over. `starts`: "soon" (the next quarter hour at least 45 minutes away), or an evening in Japan, `days` from the seed.
 * Participants are indexes into DEMO_ACCOUNTS.
 */
export const DEMO_EVENTS: ReadonlyArray<{ slug: string; title: string; description: string; starts: "soon" | { days: number; hour: number }; hours: number; capacity: number; participants: ReadonlyArray<0 | 1 | 2> }> = [
  { slug: "apex-legends", title: "Apex Legends 初心者歓迎カスタムマッチ", description: "ランク不問のカスタムマッチです。\nボイスチャットは任意、気軽にどうぞ。", starts: "soon", hours: 2, capacity: 30, participants: [0, 1] },
  { slug: "valorant", title: "VALORANT 5vs5 交流戦", description: "ダイヤ帯以上の方向け。チームはその場で組みます。", starts: { days: 2, hour: 21 }, hours: 2, capacity: 10, participants: [0] },
  { slug: "splatoon-3", title: "スプラトゥーン3 プライベートマッチ大会", description: "ナワバリとガチエリアを交互に遊びます。", starts: { days: 4, hour: 20 }, hours: 3, capacity: 8, participants: [1, 2] },
  { slug: "street-fighter-6", title: "スト6 ラウンジ対戦会", description: "勝ち残り形式。初心者も上級者も歓迎です。", starts: { days: 6, hour: 21 }, hours: 2, capacity: 16, participants: [2] },
  { slug: "monster-hunter-wilds", title: "モンハンワイルズ 素材集め周回会", description: "みんなで周回しましょう。", starts: { days: -3, hour: 21 }, hours: 2, capacity: 4, participants: [0, 2] },
];
