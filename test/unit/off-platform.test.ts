import { describe, expect, it } from "vitest";
import { looksLikeOffPlatformPayment, normaliseForOffPlatform, offPlatformRule } from "~/lib/off-platform";

describe("off-platform payment rules (docs/product.md#trust-and-safety)", () => {
  it("normalises full-width, half-width kana, case, spaces and digit separators", () => {
    expect(normaliseForOffPlatform("ＰａｙＰａｙ　ＩＤ")).toBe("paypayid");
    expect(normaliseForOffPlatform("ﾍﾟｲﾍﾟｲ")).toBe("ぺいぺい");
    expect(normaliseForOffPlatform("普通 １２３ー４５６７")).toBe("普通1234567");
    expect(normaliseForOffPlatform("123-4567・89")).toBe("123456789");
    expect(normaliseForOffPlatform("ゲーム")).toBe("げーむ");
  });

  it.each([
    ["口座番号教えてください", "bank_account"],
    ["口座を教えてもらえますか", "bank_account"],
    ["普通 1234567 でお願いします", "bank_account"],
    ["普通預金 口座番号：１２３４５６７", "bank_account"],
    ["当座 123-4567", "bank_account"],
    ["ふつう預金じゃなくて普通１２３ー４５６７です", "bank_account"],
    ["みずほ銀行 渋谷支店 普通 765", "bank_account"],
    ["○○信金 本店 店番 012", "bank_account"],
    ["ゆうちょ 記号12345 番号12345678", "bank_account"],
    ["振込先を教えます", "bank_transfer"],
    ["振込でお願いします", "bank_transfer"],
    ["振り込みで払います", "bank_transfer"],
    ["ﾌﾘｺﾐでお願いします", "bank_transfer"],
    ["5000円振り込んでください", "bank_transfer"],
    ["先に振込、３０００円です", "bank_transfer"],
    ["銀行振込OKです", "bank_transfer"],
    ["PayPay ID: gamer_123", "payment_app"],
    ["ＰａｙＰａｙで送金します", "payment_app"],
    ["ぺいぺいで送ってください", "payment_app"],
    ["ﾍﾟｲﾍﾟｲで払ってくれたら安くします", "payment_app"],
    ["LINE Payで送金お願い", "payment_app"],
    ["ラインペイで送ってね", "payment_app"],
    ["楽天ペイで支払いお願いします", "payment_app"],
    ["d払いで送金して", "payment_app"],
    ["au PAYで払ってくれたら半額", "payment_app"],
    ["支払いはpaypayでもいいよ", "payment_app"],
    ["直接取引しませんか", "direct_deal"],
    ["ここから先は直接やり取りしましょう", "direct_deal"],
    ["サイト外でやりませんか？", "direct_deal"],
    ["運営を通さずにやれば安い", "direct_deal"],
    ["外部で払ってもらえれば", "direct_deal"],
    ["手数料かからないのでこっちの方がお得", "direct_deal"],
    ["ＬＩＮＥで取引しよう", "direct_deal"],
    ["現金手渡しでも大丈夫", "direct_deal"],
    ["Amazonギフト券で払ってください", "gift_card"],
    ["アマギフ5000円分でOK", "gift_card"],
    ["ギフトコードを送ってください", "gift_card"],
    ["代金はｱﾏｷﾞﾌで", "gift_card"],
  ])("matches %s (%s)", (text, id) => {
    expect(offPlatformRule(text)).toBe(id);
    expect(looksLikeOffPlatformPayment(text)).toBe(true);
  });

  it.each([
    "振り返りしましょう",
    "振り込み詐欺に気をつけて",
    "振り込め詐欺の電話が来た",
    "ランク振り分けどうする？",
    "ポイントの振り方教えて",
    "銀行強盗ミッション行こう",
    "銀行イベント周回しよう",
    "7時にログインします",
    "１９：００－２１：００で遊べます",
    "今日は3-2で勝ち！",
    "ハイスコア1234567点取った",
    "普通に1234567点とれた",
    "電話番号は載せないでね 090-1234-5678",
    "PayPayのキャンペーンでコイン買った",
    "d払いでコイン買えました",
    "楽天ペイ使える店教えて",
    "Discordでボイチャしよう",
    "Discordで直接通話しよう",
    "直接会うのは無理です",
    "ランクマで直接対決しよう",
    "サイトの手数料っていくら？",
    "手数料かかりますか？",
    "ギフトコード来たから入力しといて",
    "ウェブマネーでガチャ回した",
    "口座？ゲームのアカウントのこと？",
    "支店長ボス倒した",
    "よろしくお願いします！",
    "",
  ])("does not match %s", (text) => {
    expect(offPlatformRule(text)).toBeNull();
    expect(looksLikeOffPlatformPayment(text)).toBe(false);
  });
});
