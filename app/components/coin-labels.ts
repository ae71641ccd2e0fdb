import type { CoinTransactionKind } from "~/models/coins.server";

/** A coin history row's kind in Japanese (docs/product.md#coins). */
const labels: Record<CoinTransactionKind, string> = {
  purchase: "購入",
  booking: "利用（チケット予約）",
  refund: "返金",
  sale: "売上",
  tip_sent: "チップ",
  tip_received: "チップ（受け取り）",
  subscription: "サブスクリプション",
  subscription_income: "サブスクリプション売上",
  payout: "出金",
  payout_return: "出金の取り消し",
  forfeit: "退会による失効",
};

export const coinTransactionLabel = (kind: CoinTransactionKind) => labels[kind] ?? kind;
