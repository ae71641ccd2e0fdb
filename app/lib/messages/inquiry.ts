export const sent = "お問い合わせを受け付けました。内容を確認のうえ、ご入力のメールアドレスへご連絡します。";

/** The operators' desk (ADR 072). */
export const deskNotFound = "お問い合わせが見つかりません";
export const replied = "返信をメールで送りました";
export const replyAgain = "この返信はすでに送信済みです";
export const closed = "完了にしました";
export const reopened = "未対応に戻しました";
export const closedNoReply = "完了したお問い合わせには返信できません。未対応に戻してから返信してください。";
export const rateLimited = "操作が多すぎます。しばらく待ってからもう一度お試しください。";
export const statusAlready = "すでにその状態です（変更なし）";
