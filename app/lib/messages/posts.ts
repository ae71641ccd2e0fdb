export const imageLabel = "画像（任意・JPEG / PNG / WebP / GIF、10MBまで）";
export const failed = "投稿に失敗しました";
export const empty = "テキストか画像のどちらかを入力してください";
export const created = "投稿しました";
export const deleted = "投稿を削除しました";
export const notFound = "投稿が見つかりません";
export const rateLimited = "投稿が続いています。1分ほど待ってからもう一度お試しください";
export const imageNotYours = "画像をもう一度選んでください";
/** A subscriber-only post with an image uploaded for a public one, or the other way round (ADR 070). */
export const imageAudienceChanged = "公開範囲が変わったため、画像をもう一度選んでください";
export const profileRequired = "投稿するにはプロフィールを設定してください";
export const notCommunityMember = "このコミュニティに参加してから投稿してください";
export const communityLabel = "コミュニティ";
export const noCommunity = "なし";
