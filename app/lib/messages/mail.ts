// Mails (docs/product.md#accounts): subjects, lines and the pages around their links.
export const signature = "GamerMatch ─ ゲーマーマッチングプラットフォーム";
export const automatic = "このメールは送信専用です。ご返信いただいてもお答えできません。";
export const openLink = "開く";

export const recoverySubject = "【GamerMatch】パスワードの再設定";
export const recoveryLead = "パスワードの再設定のお申し込みを受け付けました。下のリンクから新しいパスワードを設定してください。";
export const recoveryExpiry = "リンクの有効期限は1時間で、一度だけ使えます。";
export const recoveryIgnore = "お心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。";
export const recoveryAction = "パスワードを再設定する";

export const signupSubject = "【GamerMatch】メールアドレスの確認";
export const signupLead = "GamerMatchへのご登録ありがとうございます。下のリンクからメールアドレスを確認して、登録を完了してください。";
export const signupExpiry = "リンクの有効期限は24時間です。";
export const signupIgnore = "お心当たりがない場合は、このメールを破棄してください。アカウントは有効になりません。";
export const signupAction = "メールアドレスを確認する";

export const emailChangeSubject = "【GamerMatch】新しいメールアドレスの確認";
export const emailChangeLead = "メールアドレスの変更のお申し込みを受け付けました。下のリンクから、このアドレスへの変更を完了してください。";
export const emailChangeExpiry = "リンクの有効期限は24時間です。";
export const emailChangeIgnore = "お心当たりがない場合は、このメールを破棄してください。メールアドレスは変更されません。";
export const emailChangeAction = "メールアドレスを確認する";

export const emailChangeNoticeSubject = "【GamerMatch】メールアドレスの変更のお知らせ";
export const emailChangeNoticeLead = (newEmail: string) =>
  `お使いのアカウントのメールアドレスを ${newEmail} へ変更するお申し込みがありました。新しいアドレスで確認されると、変更が完了します。`;
export const emailChangeNoticeIgnore =
  "お心当たりがない場合は、すぐにパスワードを変更し、お問い合わせフォームからご連絡ください。";
export const emailChangeNoticeAction = "お問い合わせ";

// 二段階認証's notices (ADR 064): security mails, sent whatever the notification settings say.
export const mfaEnrolledSubject = "【GamerMatch】二段階認証を設定しました";
export const mfaEnrolledLead = (name: string) =>
  `お使いのアカウントに認証アプリ${name ? `「${name}」` : ""}を登録し、二段階認証を設定しました。次回からログイン時に確認コードの入力が必要です。`;
export const mfaRemovedSubject = "【GamerMatch】認証アプリを削除しました";
export const mfaRemovedLead = (name: string) => `お使いのアカウントから認証アプリ${name ? `「${name}」` : ""}を削除しました。`;
export const mfaRecoveryUsedSubject = "【GamerMatch】リカバリーコードが使用されました";
export const mfaRecoveryUsedLead =
  "お使いのアカウントでリカバリーコードが使用され、ログインしました。二段階認証は解除されています。セキュリティ設定から、もう一度設定してください。";
export const mfaResetSubject = "【GamerMatch】二段階認証を解除しました";
export const mfaResetLead =
  "お問い合わせにもとづき、運営がお使いのアカウントの二段階認証を解除しました。ログイン後、セキュリティ設定からもう一度設定してください。";
export const mfaNoticeAction = "セキュリティ設定を開く";
export const mfaNoticeIgnore =
  "お心当たりがない場合は、すぐにパスワードを変更し、お問い合わせフォームからご連絡ください。";

export const notificationFooter = (kindLabel: string) => `「${kindLabel}」のメールは通知設定から停止できます。`;
export const unsubscribeLink = "このメールの配信を停止する";
export const settingsLink = "通知設定";

/** The kinds of notification mail, as `/settings/notifications` and each mail's footer name them. */
export const kindLabels = {
  booking_requested: "チケットの予約が入ったとき",
  booking_accepted: "予約が承認されたとき",
  booking_cancelled: "予約がキャンセルされたとき",
  booking_reminder: "予約の開始1時間前",
  review_received: "レビューが届いたとき",
  payout_decided: "振込申請の結果",
  chat_digest: "チャットの未読まとめ（1時間に1通まで）",
} as const;

// The chat digest (at most one mail per room per hour, docs/product.md#accounts).
export const digestTitle = (name: string, count: number, others: boolean) =>
  `${name}さん${others ? "ほか" : ""}から未読のメッセージが${count}件あります`;
export const digestRoom = (name: string) => `「${name}」のメッセージ`;
export const digestMore = (count: number) => `ほか${count}件の未読メッセージがあります。`;
export const digestQuote = (at: string, sender: string, content: string) => `[${at}] ${sender}: ${content}`;

// `/settings/notifications`
export const settingsTitle = "通知メール";
export const settingsLead =
  "サイトを10分以上ひらいていないときに、選んだお知らせをメールでお送りします。チャットは1つのルームにつき1時間に1通までのまとめです。";
export const settingsAddress = (email: string) => `送信先：${email}`;
export const settingsNoAddress = "送信先のメールアドレスがまだありません。";
export const settingsLegend = "メールで受け取るお知らせ";
export const settingsSave = "保存する";
export const settingsSaved = "通知メールの設定を保存しました";

// `/unsubscribe` (the signed link in each notification mail)
export const unsubscribeTitle = "メール配信の停止";
export const unsubscribeLead = (kindLabel: string) => `「${kindLabel}」のメールの配信を停止します。`;
export const unsubscribeOthers = "ほかの種類のメールは届きつづけます。";
export const unsubscribeAction = "配信を停止する";
export const unsubscribeDone = "配信を停止しました";
export const unsubscribeDoneBody = (kindLabel: string) => `「${kindLabel}」のメールはもう届きません。`;
export const unsubscribeSettings = "通知メールの設定へ";
export const unsubscribeInvalid = "このリンクは無効です";
export const unsubscribeInvalidBody = "リンクが途中で切れているか、変更されています。メールのリンクをそのまま開くか、ログインして通知メールの設定から変更してください。";
export const unsubscribeUnknown = "このリンクのお知らせは見つかりません";
export const unsubscribeUnknownBody = "メールの種類かアカウントが見つかりませんでした。ログインして通知メールの設定から変更してください。";
export const settingsBack = "設定へ戻る";

/** An operator's reply to an inquiry (ADR 072): the reply as written, then what the sender asked. */
export const inquiryReplySubject = "【GamerMatch】お問い合わせへの回答";
export const inquiryReplyGreeting = (name: string) => `${name} 様`;
export const inquiryReplyLead = "GamerMatchへお問い合わせいただきありがとうございます。以下のとおりご回答いたします。";
export const inquiryReplyQuoted = "――お問い合わせ内容――";
export const inquiryReplyAction = "続けて問い合わせる";
export const inquiryReplyAfter = "このメールへの返信ではお答えできません。続けてのご質問は、上のリンクのお問い合わせフォームからお送りください。";
