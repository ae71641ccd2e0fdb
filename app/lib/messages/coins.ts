export const insufficient = "コインが足りません";
export const packageNotFound = "コインパッケージが見つかりません";
export const idempotencyConflict = "同じ注文キーで別の内容が送信されました。ページを再読み込みしてください。";
export const idempotencyKeyRequired = "Idempotency-Key ヘッダーが必要です";
export const orderFailed = "処理に失敗しました";
export const escrowSettled = "この取引はすでに完了しています";
export const purchasedTitle = (coins: number) => `${coins.toLocaleString("ja-JP")}コインを購入しました`;
export const purchasedBody = "コインが残高に追加されました。コイン履歴で確認できます。";
