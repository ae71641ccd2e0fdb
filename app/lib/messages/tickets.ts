export const tooManyUnits = (max: number) => `${max}枠まで選べます`;
export const startTimeRequired = "開始希望日時を入力してください";
export const startTimeInPast = "開始希望日時は現在より後を選んでください";
export const startTimeTooFar = (days: number) => `開始希望日時は${days}日以内で選んでください`;
export const listingNotFound = "チケットが見つかりません";
export const bookingNotFound = "取引が見つかりません";
export const listingPaused = "このチケットは現在受付を停止しています";
export const listingArchived = "アーカイブしたチケットは変更できません";
export const selfPurchase = "自分のチケットは購入できません";
export const blocked = "このユーザーのチケットは購入できません";
export const unitsOverMax = (max: number) => `このチケットは${max}枠まで購入できます`;
export const tooManyListings = (max: number) => `出品できるチケットは${max}件までです。使わないチケットをアーカイブしてください`;
export const idempotencyConflict = "同じ購入キーで別の内容が送信されました。ページを再読み込みしてください。";
export const saved = "チケットを保存しました";
export const paused = "チケットの受付を停止しました";
export const resumed = "チケットの受付を再開しました";
export const archived = "チケットをアーカイブしました";
export const booked = "チケットを購入しました。販売者の承認をお待ちください";
export const done = {
  accept: "取引を承認しました",
  cancel: "取引をキャンセルしました",
  start: "プレイを開始しました",
  extend: "プレイを延長しました",
  "check-in": "参加を記録しました",
  complete: "取引を完了しました",
} as const;
