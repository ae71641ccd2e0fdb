import { coinText } from "./format";

// Leaving the service (退会, docs/product.md#accounts, ADR 028).

/** The name an account that left is shown by, wherever its name appeared (bookings, reviews, chat). */
export const leftUserName = "退会したユーザー";
/** The toast on the top page after leaving. */
export const left = "退会しました。ご利用ありがとうございました。";
export const openBookings = (count: number) => `進行中の予約が${count}件あります（購入・販売のどちらも）。完了またはキャンセルされてから退会できます。`;
export const coinsInEscrow = (coins: number) => `予約の支払いとして${coinText(coins)}を預かり中です。予約が完了またはキャンセルされてから退会できます。`;
export const payoutRequested = (count: number) => `振込申請中の売上が${count}件あります。振込または却下が決まってから退会できます。`;
export const forfeit = (coins: number) =>
  `残高 ${coins.toLocaleString("ja-JP")} コインは失効し、払い戻しできません（資金決済法により、サービス終了時を除き払い戻しはできません）。`;
export const confirmRequired = "内容を確認し、チェックを入れてください";
export const wrongPassword = "パスワードが正しくありません";
export const alreadyLeft = "このアカウントはすでに退会しています";
/** Someone tried to review, tip, book, subscribe to or chat with an account that left. */
export const userLeft = "このユーザーは退会しています";
