/** The support inquiry form (/inquiry). */

export const INQUIRY_NAME_MAX = 50;
export const INQUIRY_BODY_MAX = 2000;
export const INQUIRY_CATEGORIES = [
  { value: "account", label: "アカウント・ログイン" },
  { value: "coins", label: "コイン・お支払い" },
  { value: "tickets", label: "チケット・予約" },
  { value: "trouble", label: "不具合の報告" },
  { value: "report", label: "違反行為の報告" },
  { value: "other", label: "その他" },
] as const;
export type InquiryCategory = (typeof INQUIRY_CATEGORIES)[number]["value"];
