/**
 * Does a chat message or post look like an invitation to pay outside the platform (docs/product.md#trust-and-safety)? Runs in the browser
 * (the warning before sending) and on the server (the no-JavaScript confirmation page and the operators' count), so
 * it stays small and imports nothing. A match only asks the sender to confirm: nothing is refused, so the rules lean
 * towards catching a lure over sparing an odd sentence, but stay clear of gamer talk (振り返り, ランク振り分け,
 * 銀行強盗ミッション, times, scores, game gift codes).
 *
 * The text is first normalised: NFKC (full-width ＡＢＣ１２３ → ABC123, half-width ｶﾀｶﾅ → カタカナ), lower case,
 * katakana folded to hiragana (ペイペイ = ぺいぺい), whitespace and zero-width characters dropped, and separators
 * between digits (- ー ・ . , 、 /) dropped so 123-4567 and １２３ー４５６７ read as 1234567. The rules below are
 * written in ordinary katakana and go through the same kana fold when compiled. Kanji numerals are not read.
 *
 * Decided: a warning about fraud (「振り込み詐欺に気をつけて」) does not match; 「銀行振込」 on its own does.
 */

export type OffPlatformRuleId = "bank_account" | "bank_transfer" | "payment_app" | "direct_deal" | "gift_card";

// Katakana (ァ–ヶ) to hiragana: the same letter 0x60 lower.
const foldKana = (text: string) => text.replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));

/** The text as the rules read it (exported for the tests). */
export function normaliseForOffPlatform(text: string): string {
  return foldKana(text.normalize("NFKC").toLowerCase())
    .replace(/[\s\u200b-\u200d\u2060\ufeff]+/g, "")
    .replace(/(\d)[-‐‑‒–—―ー−・.,、/]+(?=\d)/g, "$1");
}

const rule = (pattern: RegExp) => new RegExp(foldKana(pattern.source), pattern.flags);

// 振込, 振り込み, 振込み, 振り込ん(で), ふりこみ, フリコミ.
const FURI = "(?:振り?込|ふりこ)";
const PAY_APP = "(?:paypay|ペイペイ|linepay|ラインペイ|楽天(?:ペイ|pay)|rakutenpay|d払い?|aupay|auペイ|メルペイ|merpay|kyash)";
const PAY_APP_ASK = "(?:id|アカウント|送金|送っ|送る|送り|送れ|払っ|払い|払う|払え|支払|請求|受け取|受取|リンク|link|qr|番号|[:=]@?[a-z0-9_.-]{3,}|で(?:お願い|おねがい|よろしく))";
const GIFT = "(?:アマギフ|amazonギフト|アマゾンギフト|ギフト券|ギフトカード|ギフトコード|itunesカード|appleギフト|googleplay(?:ギフト)?カード|グーグルプレイカード|webmoney|ウェブマネー|bitcash|ビットキャッシュ|プリペイドカード)";

/** The rule list: each rule matches when any of its patterns finds its text in the normalised text. */
export const OFF_PLATFORM_RULES: ReadonlyArray<{ id: OffPlatformRuleId; what: string; patterns: readonly RegExp[] }> = [
  {
    id: "bank_account",
    what: "口座番号、普通/当座 + 7桁、銀行・信金 + 支店 + 番号",
    patterns: [
      rule(/口座番号|口座(?:を|は)?(?:教え|送っ|伝え)|口座(?:に|へ)(?:振り?込|ふりこ|送金|入金)/),
      rule(/(?:普通|当座|普)(?:預金)?(?:口座)?(?:番号)?[:]?(?:no\.?)?\d{7}(?!\d)/),
      rule(/(?:銀行|信金|信用金庫|信組|信用組合|労金|ろうきん|ゆうちょ|bank).{0,20}?(?:支店|本店|店番|出張所|記号).{0,20}?\d{3}/),
      rule(/(?:振り?込|ふりこ)み?先.{0,10}?\d{7}/),
    ],
  },
  {
    id: "bank_transfer",
    what: "振込先、振込で/振り込んで/振込お願い、振込 + 金額、銀行振込（振り込み詐欺の話は除く）",
    patterns: [
      new RegExp(foldKana(`${FURI}み?(?:先|さき|口座|用)`)),
      new RegExp(foldKana(`${FURI}(?:み|ん)?(?:で|にて|ます|お願い|おねがい|してくだ|して下|して(?:ほし|欲し|もらえ|いただ|頂)|可|希望|のみ|限定)`)),
      new RegExp(foldKana(`${FURI}(?![みめ]?詐欺).{0,12}?\\d+(?:円|万|yen)|\\d+(?:円|万円?).{0,8}?${FURI}(?![みめ]?詐欺)`)),
      new RegExp(foldKana(`銀行${FURI}(?![みめ]?詐欺)`)),
    ],
  },
  {
    id: "payment_app",
    what: "PayPay・LINE Pay・楽天ペイ・d払い・au PAY など + ID・送金・送って・払って",
    patterns: [
      new RegExp(foldKana(`${PAY_APP}.{0,12}?${PAY_APP_ASK}`)),
      new RegExp(foldKana(`(?:送金|送って|払って|支払い?|代金)(?:は|を|も)?.{0,6}?${PAY_APP}`)),
    ],
  },
  {
    id: "direct_deal",
    what: "直接取引・直接やり取り・サイト外で・運営を通さず・外部で払・手数料かからない・現金で",
    patterns: [
      rule(/直接(?:の)?(?:取引|とりひき|やり[取と]り|お?支?払|送金|購入|売買|買|売|依頼|契約|決済)/),
      rule(/(?:サイト|アプリ|プラットフォーム|運営)(?:の)?外(?:で|の|に)/),
      rule(/運営を?(?:通さ|通じず|介さ|挟ま)/),
      rule(/外部(?:サイト|サービス|アプリ)?で(?:の)?(?:お?支?払|取引|決済|送金|やり[取と]り)/),
      rule(/手数料(?:が|は|を|も)?(?:かから|掛から|かかりません|かかんない|取られない|取られません|浮|節約|払わなくて|払わず)/),
      rule(/(?:line|ライン|discord|ディスコ|メール|dm|twitter)(?:で|から|に)(?:の)?(?:取引|お?支?払|送金|決済)/),
      rule(/現金(?:で(?:の)?(?:お?支?払|取引|やり[取と]り)|手渡し|払い|払う)/),
    ],
  },
  {
    id: "gift_card",
    what: "Amazonギフト券・ギフトコードなど + で払って・送って・○円分",
    patterns: [
      new RegExp(foldKana(`${GIFT}.{0,10}?(?:で(?:の)?(?:お?支?払|お願い|おねがい|送|決済|代金|取引)|送っ|送り|送る|送れ|渡し|払っ|払い|払う|\\d+万?円分)`)),
      new RegExp(foldKana(`(?:代金|お?支払い?|報酬|料金|お礼)(?:は|を)?.{0,6}?${GIFT}`)),
    ],
  },
];

/** The first rule the text matches, or null. */
export function offPlatformRule(text: string): OffPlatformRuleId | null {
  const normalised = normaliseForOffPlatform(text);
  for (const { id, patterns } of OFF_PLATFORM_RULES) if (patterns.some((pattern) => pattern.test(normalised))) return id;
  return null;
}

/** Whether the sender should see the off-platform payment warning before this text is sent (and it is counted). */
export function looksLikeOffPlatformPayment(text: string | null | undefined): boolean {
  return typeof text === "string" && text !== "" && offPlatformRule(text) !== null;
}
