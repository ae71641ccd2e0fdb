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

/** Where the operators' desk is with an inquiry (ADR 072): open (new or reopened), answered (a reply was mailed), closed. */
export const INQUIRY_STATUSES = [
  { value: "open", label: "未対応" },
  { value: "answered", label: "回答済み" },
  { value: "closed", label: "完了" },
] as const;
export type InquiryStatusValue = (typeof INQUIRY_STATUSES)[number]["value"];
/** The longest reply an operator mails (the database allows twice this). */
export const INQUIRY_REPLY_MAX = 2000;
/** Inquiries one page of the desk's queue lists. */
export const INQUIRY_DESK_PAGE = 50;
/** Earlier inquiries from the same address an inquiry's page shows, newest first. */
export const INQUIRY_EARLIER_MAX = 20;
/** Replies, closes and reopens one operator may post (the desk's forms, counted per operator). */
export const INQUIRY_DESK_RATE_LIMIT = { limit: 30, windowMs: 10 * 60_000 } as const;
