/** Every user-facing message of the error catalogue (SPEC §8) and the forms, in Japanese. */
export const messages = {
  error: {
    title: "エラーが発生しました",
    body: "問題が発生しました。時間をおいて再度お試しください。",
    back: "前のページに戻る",
    top: "トップページへ",
    notFoundTitle: "ページが見つかりません",
    notFoundBody: "お探しのページは移動または削除された可能性があります。",
  },
  validation: {
    required: "入力してください",
    selectRequired: "選択してください",
    email: "メールアドレスの形式が正しくありません",
    maxLength: (max: number) => `${max}文字以内で入力してください`,
    invalidChoice: "選択肢から選んでください",
    checkInput: "入力内容を確認してください",
    url: "URLの形式が正しくありません",
    tooMany: (max: number) => `${max}件まで選べます`,
    unknownGame: "選択できないゲームが含まれています",
    invalidCharacters: "使用できない文字が含まれています",
  },
  api: {
    authRequired: "認証が必要です",
    notFound: "リソースが見つかりません",
    failed: "処理に失敗しました",
    overloaded: "ただいま混み合っています。少し待ってからもう一度お試しください",
  },
  auth: {
    invalidCredentials: "メールアドレスまたはパスワードが正しくありません",
    userExists: "このメールアドレスはすでに登録されています",
    rateLimited: "ログインの試行回数が多すぎます。しばらくしてから再度お試しください。",
    invalidSession: "認証状態が無効です。ページを再読み込みしてください。",
    sessionExpired: "セッションの有効期限が切れました。再度ログインしてください。",
    passwordTooShort: (min: number) => `パスワードは${min}文字以上で入力してください`,
    crossOrigin: "このリクエストは受け付けられません",
    failed: "処理に失敗しました。時間をおいて再度お試しください。",
  },
  profile: {
    saved: "プロフィールを保存しました",
    notSetUp: "プロフィールが未設定です",
  },
  realtime: {
    connectTimeout: "Connection timeout",
  },
  chat: {
    blocked: "このユーザーにはメッセージを送信できません",
    rateLimited: "メッセージの送信が多すぎます。少し待ってから再度お試しください。",
    emptyMessage: "メッセージを入力してください",
    cannotChatWithSelf: "自分自身とはチャットできません",
    userNotFound: "ユーザーが見つかりません",
  },
  notifications: {
    welcomeTitle: "GamerMatchへようこそ！",
    welcomeBody: "プロフィールの登録が完了しました。一緒に遊べるゲーマーを探してみましょう。",
    chatStartedTitle: (name: string) => `${name}さんがチャットを始めました`,
    chatStartedBody: "メッセージを確認してみましょう。",
    allRead: "すべての通知を既読にしました",
  },
  coins: {
    insufficient: "コインが足りません",
    packageNotFound: "コインパッケージが見つかりません",
    idempotencyConflict: "同じ注文キーで別の内容が送信されました。ページを再読み込みしてください。",
    idempotencyKeyRequired: "Idempotency-Key ヘッダーが必要です",
    orderFailed: "処理に失敗しました",
    escrowSettled: "この取引はすでに完了しています",
    purchasedTitle: (coins: number) => `${coins.toLocaleString("ja-JP")}コインを購入しました`,
    purchasedBody: "コインが残高に追加されました。コイン履歴で確認できます。",
  },
  inquiry: {
    sent: "お問い合わせを受け付けました。内容を確認のうえ、ご入力のメールアドレスへご連絡します。",
  },
} as const;

/** The messages of a 404 (SPEC §8): an unmatched path, and a route whose params are invalid. */
export const notFoundMessage = (path: string) => `Page not found: ${path}`;
export const invalidRouteMessage = (path: string) => `Page Not Found: ${path}`;

/** What a broken ledger or order rule (a CoinError or CoinOrderError code) says to the person. */
export function coinErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    insufficient_coins: messages.coins.insufficient,
    package_not_found: messages.coins.packageNotFound,
    idempotency_conflict: messages.coins.idempotencyConflict,
    provider_failed: messages.coins.orderFailed,
    escrow_settled: messages.coins.escrowSettled,
    escrow_not_found: messages.api.notFound,
  };
  return byCode[code] ?? messages.validation.checkInput;
}

/** What a broken chat rule (a ChatError code) says to the person. */
export function chatErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    room_not_found: messages.api.notFound,
    user_not_found: messages.chat.userNotFound,
    blocked: messages.chat.blocked,
    rate_limited: messages.chat.rateLimited,
    self_chat: messages.chat.cannotChatWithSelf,
  };
  return byCode[code] ?? messages.validation.checkInput;
}
