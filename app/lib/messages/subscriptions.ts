import { coinText } from "./format";

export const subscribed = (until: string) => `サブスクしました（${until}まで）`;
export const planSaved = "サブスクプランを保存しました";
export const planWithdrawn = "サブスクプランを取り下げました";
export const selfSubscription = "自分にはサブスクできません";
export const noPlan = "このユーザーはサブスクプランを提供していません";
export const blocked = "このユーザーにはサブスクできません";
export const idempotencyConflict = "この申し込みはすでに別の内容で処理されています。ページを読み込み直してください";
export const locked = "サブスク限定の投稿です";
export const newSubscriberTitle = (name: string) => `${name}さんがサブスクしました`;
export const newSubscriberBody = (credited: number) => `${coinText(credited)}が売上に追加されました（手数料を差し引いた額）。`;
export const expiringTitle = (name: string) => `${name}さんのサブスクがまもなく終了します`;
export const expiringBody = (until: string) => `${until}に終了します。自動更新はされません。続ける場合は更新してください。`;
