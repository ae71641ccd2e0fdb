// Reports (通報, docs/product.md#trust-and-safety).
export const action = "通報する";
export const title = "通報する";
export const lead = "運営が内容を確認します。通報したことが相手に知らされることはありません。";
export const reasonLegend = "通報の理由";
export const noteLabel = "詳しい内容（任意）";
export const noteHint = (max: number) => `${max}文字以内`;
export const submit = "通報を送信する";
export const submitting = "送信中…";
export const close = "閉じる";
export const cancel = "やめる";
export const sent = "通報を受け付けました";
export const alreadySent = "この内容はすでに通報を受け付けています";
export const notFound = "通報する対象が見つかりません";
export const self = "自分自身や自分の投稿は通報できません";
export const rateLimited = (max: number) => `通報は1日${max}件までです。時間をおいてからお試しください`;
export const failed = "通報を送信できませんでした。時間をおいてからもう一度お試しください";
export const reasonLabels = {
  spam: "スパム・宣伝",
  harassment: "嫌がらせ・誹謗中傷",
  inappropriate: "不適切な内容",
  off_platform_payment: "外部での支払い・直接取引の誘い",
  impersonation: "なりすまし",
  other: "その他",
} as const;
export const targetLabels = {
  user: "ユーザー",
  post: "投稿",
  chat_message: "チャットのメッセージ",
  listing: "チケット",
  review: "レビュー",
} as const;
/** What a reporter is told of their report: received, acted on, or nothing to do (never the details). */
export const statusLabels = { open: "受付済み", actioned: "対応済み", dismissed: "対応なし" } as const;
export const listTitle = "通報の履歴";
export const listLead = "あなたが送った通報と、その対応状況です。対応の詳しい内容はお知らせしていません。";
export const listEmpty = "まだ通報していません。";
export const listBack = "設定に戻る";
export const settingsLink = "通報の履歴";
export const settingsLinkHint = "送った通報と対応状況";
