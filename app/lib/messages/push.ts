// Web Push (ADR 052): `/settings/notifications`' device section, its API's errors, and what a push says.

export const sectionTitle = "プッシュ通知";
export const sectionLead =
  "選んだお知らせを、この端末の通知としてお届けします。チャットはルームごとに1件にまとまり、そのルームを画面で開いているあいだは届きません。";
export const enable = "この端末にプッシュ通知";
export const enabling = "設定しています…";
export const enabledHere = "この端末にはプッシュ通知が届きます。";
export const disableHere = "この端末への通知をやめる";
export const enabledNow = "この端末にプッシュ通知が届くようになりました。";
export const disabledNow = "この端末へのプッシュ通知をやめました。";
export const unsupported = "このブラウザはプッシュ通知に対応していません。Chrome・Edge・Firefox・Safari（16.4以降）の最新版でお試しください。";
export const iosNotInstalled =
  "iPhone・iPadでは、ホーム画面に追加したアプリでだけプッシュ通知を受け取れます。Safariの共有ボタンから「ホーム画面に追加」を選び、ホーム画面のアイコンから開いてもう一度お試しください。";
export const denied = "通知が許可されていません。ブラウザ（または端末）の設定でこのサイトの通知を許可してから、もう一度お試しください。";
export const failed = "プッシュ通知を設定できませんでした。時間をおいてもう一度お試しください。";
export const needsScript = "この端末でプッシュ通知を受け取るには、JavaScriptを有効にしてください。";
export const devicesLegend = "プッシュ通知を受け取る端末";
export const noDevices = "プッシュ通知を受け取る端末はまだありません。";
export const deviceAdded = (at: string) => `${at}に登録`;
export const deviceLastSuccess = (at: string) => `最後に届いた日時：${at}`;
export const deviceNeverReached = "まだ届いていません";
export const remove = "解除";
export const removeLabel = (label: string) => `${label}のプッシュ通知を解除`;
export const removed = "端末のプッシュ通知を解除しました";
export const kindsLegend = "プッシュ通知で受け取るお知らせ";
export const kindsSave = "保存する";
export const kindsSaved = "プッシュ通知の設定を保存しました";

/** The kinds of push, as `/settings/notifications` names them. */
export const kindLabels = {
  chat: "チャットのメッセージ",
  booking: "予約の申し込み・承認・キャンセル・開始",
  review: "レビューとチップ",
  subscription: "サブスクの加入と、加入しているユーザーの投稿",
} as const;

// The API's errors.
export const subscriptionNotFound = "この端末の登録が見つかりません。";
export const invalidSubscription = "プッシュ通知の登録内容が正しくありません。";

// A device's name in the list: 「Chrome（Android）」.
export const deviceLabel = (browser: string, os: string) => `${browser}（${os}）`;
export const unknownBrowser = "ブラウザ";
export const unknownOs = "不明な端末";

// What a push says (title, a short body).
export const chatTitle = (sender: string) => `${sender}さんからのメッセージ`;
export const groupChatTitle = (room: string, sender: string) => `${room}（${sender}さん）`;
export const postTitle = (author: string) => `${author}さんが投稿しました`;
export const postImage = "画像が投稿されました";
/** A subscriber-only post is announced without a word of it: the lock screen is not the subscription. */
export const subscribersOnlyPost = "会員限定の投稿です。アプリでご覧ください。";
