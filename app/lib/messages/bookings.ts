import { ACCEPT_DEADLINE_MS, NO_SHOW_GRACE_MS, NOT_STARTED_CANCEL_AFTER_MS } from "../constants/bookings";
import { coinText, hours } from "./format";

export const tooManyUnits = (max: number) => `${max}枠まで選べます`;
export const startTimeRequired = "開始希望日時を入力してください";
export const startTimeInPast = "開始希望日時は現在より後を選んでください";
export const startTimeTooFar = (days: number) => `開始希望日時は${days}日以内で選んでください`;
export const bookingNotFound = "取引が見つかりません";
export const selfPurchase = "自分のチケットは購入できません";
export const blocked = "このユーザーのチケットは購入できません";
export const unitsOverMax = (max: number) => `このチケットは${max}枠まで購入できます`;
export const idempotencyConflict = "同じ購入キーで別の内容が送信されました。ページを再読み込みしてください。";
export const booked = "チケットを購入しました。販売者の承認をお待ちください";
export const done = {
  accept: "取引を承認しました",
  cancel: "取引をキャンセルしました",
  start: "プレイを開始しました",
  extend: "プレイを延長しました",
  "check-in": "参加を記録しました",
  complete: "取引を完了しました",
} as const;
export const unknownUser = "退会したユーザー";
export const purchasedNotice = (title: string, units: number, minutes: number, price: number) => `チケット「${title}」を購入しました（${units}枠・${minutes}分・${coinText(price)}）`;
export const startCaption = (start: string) => `開始希望 ${start}`;
export const purchasedTitle = (title: string) => `「${title}」が購入されました`;
export const purchasedBody = (buyer: string, units: number, minutes: number, start: string) =>
  `${buyer}さん・${units}枠（${minutes}分）・開始希望 ${start}。${hours(ACCEPT_DEADLINE_MS)}時間以内に承認してください。`;
export const acceptedTitle = (title: string) => `「${title}」が承認されました`;
export const acceptedBody = (start: string) => `開始希望 ${start}。時間になったら「参加しました」を押してください。`;
export const cancelledTitle = (title: string) => `「${title}」がキャンセルされました`;
/** Why a booking was cancelled, with the names of who did it. */
export const cancelledWhy = {
  buyer: (names: { buyer: string; seller: string }) => `${names.buyer}さんがキャンセルしました`,
  seller: (names: { buyer: string; seller: string }) => `${names.seller}さんがキャンセルしました`,
  no_show: (names: { buyer: string; seller: string }) =>
    `販売者が開始時刻から${NO_SHOW_GRACE_MS / 60_000}分以内に参加しなかったため、${names.buyer}さんがキャンセルしました`,
  accept_deadline: () => `販売者が${hours(ACCEPT_DEADLINE_MS)}時間以内に承認しなかったため、自動でキャンセルされました`,
  not_started: () => `開始希望時刻から${hours(NOT_STARTED_CANCEL_AFTER_MS)}時間が過ぎても開始されなかったため、自動でキャンセルされました`,
  moderation: () => "運営の判断により、キャンセルされました",
} as const;
/** The same, without names: beside a cancelled booking in the lists. */
export const cancelledLabels = {
  buyer: "購入者がキャンセルしました",
  seller: "販売者がキャンセルしました",
  no_show: "販売者が参加しなかったため購入者がキャンセルしました",
  accept_deadline: `${hours(ACCEPT_DEADLINE_MS)}時間以内に承認されなかったため自動でキャンセルされました`,
  not_started: "開始されなかったため自動でキャンセルされました",
  moderation: "運営の判断によりキャンセルされました",
} as const;
export const cancelledBody = (why: string, price: number) => `${why}。${coinText(price)}は購入者に全額返金されました。`;
export const cancelledNotice = (title: string, why: string) => `チケット「${title}」がキャンセルされました。${why}。`;
export const refundCaption = (price: number) => `${coinText(price)}を返金`;
export const reminderTitle = (title: string) => `「${title}」がまもなく始まります`;
export const reminderSellerBody = (start: string) => `開始予定 ${start}。時間になったらチケット管理から開始してください。`;
export const reminderBuyerBody = (start: string) => `開始予定 ${start}。時間になったら「参加しました」を押してください。`;
export const startedTitle = (title: string) => `「${title}」が開始されました`;
export const startedBody = (endsAt: string) => `終了予定 ${endsAt}`;
export const startedToastBody = "販売者がプレイを開始しました。";
export const checkedInTitle = (name: string, title: string) => `${name}さんが「${title}」に参加しました`;
export const checkedInBody = "「参加しました」が押されました。";
export const extendedMessage = (title: string, units: number, minutes: number, endsAt: string) => `「${title}」が${units}枠（${minutes}分）延長されました。終了予定 ${endsAt}`;
export const extendedTitle = (title: string) => `「${title}」が延長されました`;
export const extendedBody = (buyer: string, units: number, minutes: number, price: number) => `${buyer}さんが${units}枠（${minutes}分・${coinText(price)}）延長しました。`;
export const extendedToastTitle = "プレイが延長されました";
export const completedTitle = (title: string) => `「${title}」が完了しました`;
export const completedSellerBody = (credited: number, fee: number, buyer: string) =>
  `${coinText(credited)}が売上に追加されました（手数料 ${coinText(fee)}）。${buyer}さんのレビューを書いてみましょう。`;
export const completedBuyerBody = (seller: string) => `${seller}さんとのプレイはいかがでしたか？レビューを書いてみましょう。`;
