// What the benches' generated data is made of (bench:explore, bench:scale): deterministic ids, so one statement can
// point at rows another made, and the words names, titles and posts are drawn from, which the searches look for.
import { sql } from "kysely";

const idOf = (kind: string, i: string) => sql.raw(`('00000000-0000-4000-${kind}-' || lpad(to_hex(${i}), 12, '0'))::uuid`);
/** User, listing, booking and room number `i` (an SQL expression), as an SQL uuid. */
export const userId = (i: string) => idOf("8000", i);
export const listingId = (i: string) => idOf("9000", i);
export const bookingId = (i: string) => idOf("a000", i);
export const roomId = (i: string) => idOf("b000", i);
/** The same ids in JavaScript. */
const idNumber = (kind: string) => (i: number) => `00000000-0000-4000-${kind}-${i.toString(16).padStart(12, "0")}`;
export const userIdOf = idNumber("8000");
export const listingIdOf = idNumber("9000");
export const bookingIdOf = idNumber("a000");
export const roomIdOf = idNumber("b000");
/** The mail address of user number `i` (an SQL expression), and of a user id in JavaScript: the bench's accounts. */
export const userEmail = (i: string) => sql.raw(`('bench-' || lpad(to_hex(${i}), 12, '0') || '@example.jp')`);
export const userEmailOf = (uid: string) => `bench-${uid.slice(-12)}@example.jp`;

const pgArray = (values: readonly (string | number)[]) => `array[${values.map((v) => (typeof v === "number" ? v : `'${v}'`)).join(", ")}]`;
/** One of `values`, chosen by the SQL expression `index`. */
export const pick = (values: readonly (string | number)[], index: string) => sql.raw(`(${pgArray(values)})[1 + (${index}) % ${values.length}]`);

// Words the data is made of, and what the searches look for in it.
export const NAME_FIRST = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "さくら", "ひなた", "ミナト", "ソラ", "レン", "Shadow", "neko", "Ace", "ゲーマー", "夜更かし"];
export const NAME_SECOND = ["太郎", "ゆうき", "あおい", "はると", "カイト", "ユウ", "ハル", "翔", "蓮", "陽菜", "Pro", "gamer", "_jp", "ちゃん", "さん", "丸", "マスター", "キング", "侍", "忍者", "くん", "ぴよ", "猫", "犬"];
export const TITLE_FIRST = ["初心者歓迎", "まったり", "ガチ", "一緒に", "コーチング", "ランク上げ", "エンジョイ", "深夜", "朝活", "女性歓迎", "声なし", "わいわい"];
export const TITLE_SECOND = ["デュオ", "スクワッド", "練習", "対戦", "攻略", "配信", "雑談", "周回", "大会準備", "カスタム", "立ち回り講座", "キャリー"];
export const TITLE_THIRD = ["しましょう", "募集", "お手伝いします", "やりませんか", "します", "！", "（初心者OK）", "気軽にどうぞ"];
export const POST_WORDS = ["今日は", "ランクが上がった", "新しいキャラ", "練習中", "誰か一緒に", "深夜に", "まったり", "勝てない…", "大会お疲れさまでした", "GG", "配信します", "フレンド募集", "攻略メモ", "ありがとうございました"];
export const PRICES = [100, 200, 300, 500, 800, 1000, 1500, 2000, 3000, 5000, 8000, 10000, 20000, 30000, 50000];
export const MINUTES = [15, 30, 60, 90, 120];
export const CHAT_WORDS = ["よろしくお願いします", "今から行けます", "了解です", "ありがとう！", "GG", "次は何時にしますか", "おつかれさま", "ボイスつなぎます", "少し遅れます", "また遊びましょう"];
