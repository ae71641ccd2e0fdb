export const blocked = "このユーザーにはメッセージを送信できません";
export const rateLimited = "メッセージの送信が多すぎます。少し待ってから再度お試しください。";
export const emptyMessage = "メッセージを入力してください";
export const cannotChatWithSelf = "自分自身とはチャットできません";
export const userNotFound = "ユーザーが見つかりません";
export const sendFailed = "メッセージを送信できませんでした。もう一度お試しください";
/** The same message id came with another text or room: an app's mistake, never a person's. */
export const clientIdReused = "送信内容を確認できませんでした。ページを再読み込みしてからもう一度お試しください";
/** The picture's upload is not the sender's (or does not exist): said like any other thing one cannot see. */
export const uploadNotFound = "画像が見つかりません。もう一度選択してください";
export const uploadUsed = "この画像はすでに送信されています。もう一度選択してください";
export const imageLabel = "画像";
/** What an image message says once its picture was removed (hidden by the operators, its sender left: ADR 070), before its caption. */
export const imageRemoved = "この画像は削除されました";
/** The full-screen picture viewer (ADR 070): its name for screen readers, its close button, and the thumbnail's link. */
export const viewerLabel = "画像を拡大表示";
export const viewerClose = "閉じる";
export const viewerOpen = "画像を拡大表示する";
