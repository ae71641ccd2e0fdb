import { coinText } from "./format";

export const coinsMin = (min: number) => `${min.toLocaleString("ja-JP")}コイン以上で申請してください`;
export const coinsMax = (max: number) => `1回の申請は${max.toLocaleString("ja-JP")}コインまでです`;
export const accountNumber = (digits: number) => `口座番号は${digits}桁の数字で入力してください`;
export const accountHolder = "口座名義はカタカナで入力してください";
export const insufficient = "申請できる売上コインが足りません";
export const idempotencyConflict = "この申請はすでに別の内容で送信されています。振込申請のページを開き直してください。";
export const notFound = "振込申請が見つかりません";
export const alreadyDecided = "この振込申請はすでに処理されています";
export const held = "この振込申請は運営の確認のため保留中です（npm run moderation -- restore で申請中に戻ります）";
export const profileRequired = "振込申請にはプロフィールの設定が必要です";
export const requested = "振込を申請しました";
export const status = { requested: "申請中", held: "保留中", paid: "振込済み", rejected: "却下" } as const;
export const paidTitle = (coins: number) => `${coinText(coins)}の振込が完了しました`;
export const paidBody = (yen: number, account: string) => `${yen.toLocaleString("ja-JP")}円を${account}へ振り込みました。`;
export const rejectedTitle = (coins: number) => `${coinText(coins)}の振込申請は却下されました`;
export const rejectedBody = (coins: number) => `${coinText(coins)}を売上残高に戻しました。口座情報をご確認のうえ、もう一度申請してください。`;

/** The operators' desk (ADR 072). */
export const deskPaid = "振込済みにしました";
export const deskRejected = "却下しました（売上コインを申請者に戻しました）";
export const deskUnchanged = (status: string) => `すでに${status}です（変更なし）`;
export const deskRateLimited = "操作が多すぎます。しばらく待ってからもう一度お試しください。";
