export const blocked = "このユーザーにはメッセージを送信できません";
export const rateLimited = "メッセージの送信が多すぎます。少し待ってから再度お試しください。";
export const emptyMessage = "メッセージを入力してください";
export const cannotChatWithSelf = "自分自身とはチャットできません";
export const userNotFound = "ユーザーが見つかりません";
export const sendFailed = "メッセージを送信できませんでした。もう一度お試しください";
/** The same message id came with another text or room: an app's mistake, never a person's. */
export const clientIdReused = "送信内容を確認できませんでした。ページを再読み込みしてからもう一度お試しください";
