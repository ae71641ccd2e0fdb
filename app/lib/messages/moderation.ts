// The operators' decisions (docs/product.md#trust-and-safety, ADR 030): what the people concerned are told, and what the command says.

/** To each reporter of what was decided: never the details. */
export const decidedTitle = "通報への対応について";
export const actionedBody = "ご報告いただいた内容を確認し、対応しました。ご協力ありがとうございます。";
export const dismissedBody = "ご報告いただいた内容を確認しましたが、今回は対応は行いませんでした。ご協力ありがとうございます。";

/** Sign-in refused (the auth server's `user_banned`), with where to ask. */
export const suspendedUntil = (until: string) => `このアカウントは${until}まで利用停止中です。お問い合わせは /inquiry から`;
export const banned = "このアカウントは利用停止されています。お問い合わせは /inquiry から";
export const inquiryLink = "お問い合わせはこちら";

/** The profile of a suspended or banned account. */
export const suspendedUser = "利用停止中のユーザー";
export const suspendedProfile = "このユーザーは現在利用停止中です";

export const errors = {
  report_not_found: "通報が見つかりません",
  user_not_found: "ユーザーが見つかりません（退会済みを含む）",
  target_not_found: "通報された対象が見つかりません（削除済み）",
  user_not_hideable: "ユーザーの通報は非表示にできません。suspend USER_ID --days N か ban USER_ID を使ってください",
  already_decided: "この通報はすでに判断済みです",
  already_banned: "このユーザーはすでに利用停止（ban）されています",
  reason_required: "--reason \"理由\" を1〜1000文字で指定してください",
  nothing_to_restore: "元に戻すもの（非表示・利用停止・保留中の振込）がありません",
} as const;
