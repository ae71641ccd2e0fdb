import { ACCEPT_DEADLINE_MS, UPLOAD_MAX_BYTES, LISTINGS_PER_SELLER_MAX, NO_SHOW_GRACE_MS, NOT_STARTED_CANCEL_AFTER_MS } from "./constants";

const coinText = (amount: number) => `${amount.toLocaleString("ja-JP")}コイン`;
const hours = (ms: number) => ms / 3_600_000;
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
  uploads: {
    tooLarge: `画像のサイズは${UPLOAD_MAX_BYTES / 1024 / 1024}MBまでです`,
    rateLimited: "画像のアップロードが多すぎます。しばらくしてから再度お試しください。",
    fileRequired: "画像を選択してください",
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
    avatarSaved: "アバター画像を変更しました",
    avatarRemoved: "アバター画像を削除しました",
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
  tickets: {
    tooManyUnits: (max: number) => `${max}枠まで選べます`,
    startTimeRequired: "開始希望日時を入力してください",
    startTimeInPast: "開始希望日時は現在より後を選んでください",
    startTimeTooFar: (days: number) => `開始希望日時は${days}日以内で選んでください`,
    listingNotFound: "チケットが見つかりません",
    bookingNotFound: "取引が見つかりません",
    listingPaused: "このチケットは現在受付を停止しています",
    listingArchived: "アーカイブしたチケットは変更できません",
    selfPurchase: "自分のチケットは購入できません",
    blocked: "このユーザーのチケットは購入できません",
    unitsOverMax: (max: number) => `このチケットは${max}枠まで購入できます`,
    tooManyListings: (max: number) => `出品できるチケットは${max}件までです。使わないチケットをアーカイブしてください`,
    idempotencyConflict: "同じ購入キーで別の内容が送信されました。ページを再読み込みしてください。",
    saved: "チケットを保存しました",
    paused: "チケットの受付を停止しました",
    resumed: "チケットの受付を再開しました",
    archived: "チケットをアーカイブしました",
    booked: "チケットを購入しました。販売者の承認をお待ちください",
    done: {
      accept: "取引を承認しました",
      cancel: "取引をキャンセルしました",
      start: "プレイを開始しました",
      extend: "プレイを延長しました",
      "check-in": "参加を記録しました",
      complete: "取引を完了しました",
    },
  },
  /** What a booking's changes tell its two people: chat notices, notifications, live toasts. Times come formatted. */
  bookings: {
    unknownUser: "退会したユーザー",
    purchasedNotice: (title: string, units: number, minutes: number, price: number) => `チケット「${title}」を購入しました（${units}枠・${minutes}分・${coinText(price)}）`,
    startCaption: (start: string) => `開始希望 ${start}`,
    purchasedTitle: (title: string) => `「${title}」が購入されました`,
    purchasedBody: (buyer: string, units: number, minutes: number, start: string) =>
      `${buyer}さん・${units}枠（${minutes}分）・開始希望 ${start}。${hours(ACCEPT_DEADLINE_MS)}時間以内に承認してください。`,
    acceptedTitle: (title: string) => `「${title}」が承認されました`,
    acceptedBody: (start: string) => `開始希望 ${start}。時間になったら「参加しました」を押してください。`,
    cancelledTitle: (title: string) => `「${title}」がキャンセルされました`,
    /** Why a booking was cancelled, with the names of who did it. */
    cancelledWhy: {
      buyer: (names: { buyer: string; seller: string }) => `${names.buyer}さんがキャンセルしました`,
      seller: (names: { buyer: string; seller: string }) => `${names.seller}さんがキャンセルしました`,
      no_show: (names: { buyer: string; seller: string }) =>
        `販売者が開始時刻から${NO_SHOW_GRACE_MS / 60_000}分以内に参加しなかったため、${names.buyer}さんがキャンセルしました`,
      accept_deadline: () => `販売者が${hours(ACCEPT_DEADLINE_MS)}時間以内に承認しなかったため、自動でキャンセルされました`,
      not_started: () => `開始希望時刻から${hours(NOT_STARTED_CANCEL_AFTER_MS)}時間が過ぎても開始されなかったため、自動でキャンセルされました`,
    },
    /** The same, without names: beside a cancelled booking in the lists. */
    cancelledLabels: {
      buyer: "購入者がキャンセルしました",
      seller: "販売者がキャンセルしました",
      no_show: "販売者が参加しなかったため購入者がキャンセルしました",
      accept_deadline: `${hours(ACCEPT_DEADLINE_MS)}時間以内に承認されなかったため自動でキャンセルされました`,
      not_started: "開始されなかったため自動でキャンセルされました",
    },
    cancelledBody: (why: string, price: number) => `${why}。${coinText(price)}は購入者に全額返金されました。`,
    cancelledNotice: (title: string, why: string) => `チケット「${title}」がキャンセルされました。${why}。`,
    refundCaption: (price: number) => `${coinText(price)}を返金`,
    startedTitle: (title: string) => `「${title}」が開始されました`,
    startedBody: (endsAt: string) => `終了予定 ${endsAt}`,
    startedToastBody: "販売者がプレイを開始しました。",
    checkedInTitle: (name: string, title: string) => `${name}さんが「${title}」に参加しました`,
    checkedInBody: "「参加しました」が押されました。",
    extendedMessage: (title: string, units: number, minutes: number, endsAt: string) => `「${title}」が${units}枠（${minutes}分）延長されました。終了予定 ${endsAt}`,
    extendedTitle: (title: string) => `「${title}」が延長されました`,
    extendedBody: (buyer: string, units: number, minutes: number, price: number) => `${buyer}さんが${units}枠（${minutes}分・${coinText(price)}）延長しました。`,
    extendedToastTitle: "プレイが延長されました",
    completedTitle: (title: string) => `「${title}」が完了しました`,
    completedSellerBody: (credited: number, fee: number, buyer: string) =>
      `${coinText(credited)}が売上に追加されました（手数料 ${coinText(fee)}）。${buyer}さんのレビューを書いてみましょう。`,
    completedBuyerBody: (seller: string) => `${seller}さんとのプレイはいかがでしたか？レビューを書いてみましょう。`,
  },
  reviews: {
    ratingRequired: "評価（星）を選んでください",
    sent: "レビューを送信しました",
    failed: "レビューの送信に失敗しました",
    notFound: "取引が見つかりません",
    notCompleted: "レビューできるのは完了した取引だけです",
    alreadyReviewed: "この取引はすでにレビュー済みです",
    tipBuyerOnly: "チップを送れるのは購入者だけです",
    blocked: "このユーザーにはレビューできません",
    receivedTitle: (name: string, rating: number) => `${name}さんからレビューが届きました（★${rating}）`,
    receivedBody: (tip: number) => (tip > 0 ? `チップ ${tip.toLocaleString("ja-JP")}コインが売上に追加されました（手数料を差し引いた額）。` : "レビューを確認してみましょう。"),
  },
  posts: {
    imageLabel: "画像（任意・JPEG / PNG / WebP / GIF、10MBまで）",
    failed: "投稿に失敗しました",
    empty: "テキストか画像のどちらかを入力してください",
    created: "投稿しました",
    deleted: "投稿を削除しました",
    notFound: "投稿が見つかりません",
    rateLimited: "投稿が続いています。1分ほど待ってからもう一度お試しください",
    imageNotYours: "画像をもう一度選んでください",
    profileRequired: "投稿するにはプロフィールを設定してください",
    notCommunityMember: "このコミュニティに参加してから投稿してください",
    communityLabel: "コミュニティ",
    noCommunity: "なし",
  },
  communities: {
    joined: (name: string) => `「${name}」に参加しました`,
    left: (name: string) => `「${name}」から退会しました`,
    notFound: "コミュニティが見つかりません",
    profileRequired: "参加するにはプロフィールを設定してください",
  },
  subscriptions: {
    subscribed: (until: string) => `サブスクしました（${until}まで）`,
    planSaved: "サブスクプランを保存しました",
    planWithdrawn: "サブスクプランを取り下げました",
    selfSubscription: "自分にはサブスクできません",
    noPlan: "このユーザーはサブスクプランを提供していません",
    blocked: "このユーザーにはサブスクできません",
    idempotencyConflict: "この申し込みはすでに別の内容で処理されています。ページを読み込み直してください",
    locked: "サブスク限定の投稿です",
    newSubscriberTitle: (name: string) => `${name}さんがサブスクしました`,
    newSubscriberBody: (credited: number) => `${coinText(credited)}が売上に追加されました（手数料を差し引いた額）。`,
    expiringTitle: (name: string) => `${name}さんのサブスクがまもなく終了します`,
    expiringBody: (until: string) => `${until}に終了します。自動更新はされません。続ける場合は更新してください。`,
  },
  profiles: {
    notFound: "ユーザーが見つかりません",
    blocked: "ブロックしました",
    unblocked: "ブロックを解除しました",
  },
  payouts: {
    coinsMin: (min: number) => `${min.toLocaleString("ja-JP")}コイン以上で申請してください`,
    coinsMax: (max: number) => `1回の申請は${max.toLocaleString("ja-JP")}コインまでです`,
    accountNumber: (digits: number) => `口座番号は${digits}桁の数字で入力してください`,
    accountHolder: "口座名義はカタカナで入力してください",
    insufficient: "申請できる売上コインが足りません",
    idempotencyConflict: "この申請はすでに別の内容で送信されています。振込申請のページを開き直してください。",
    notFound: "振込申請が見つかりません",
    alreadyDecided: "この振込申請はすでに処理されています",
    profileRequired: "振込申請にはプロフィールの設定が必要です",
    requested: "振込を申請しました",
    status: { requested: "申請中", paid: "振込済み", rejected: "却下" },
    paidTitle: (coins: number) => `${coinText(coins)}の振込が完了しました`,
    paidBody: (yen: number, account: string) => `${yen.toLocaleString("ja-JP")}円を${account}へ振り込みました。`,
    rejectedTitle: (coins: number) => `${coinText(coins)}の振込申請は却下されました`,
    rejectedBody: (coins: number) => `${coinText(coins)}を売上残高に戻しました。口座情報をご確認のうえ、もう一度申請してください。`,
  },
  inquiry: {
    sent: "お問い合わせを受け付けました。内容を確認のうえ、ご入力のメールアドレスへご連絡します。",
  },
  events: {
    joined: "イベントに参加しました",
    alreadyJoined: "すでにこのイベントに参加しています",
    left: "イベントへの参加を取り消しました",
    notJoined: "このイベントには参加していません",
    full: "満員のため参加できません",
    started: "開始済みのイベントには参加・取り消しできません",
    notFound: "イベントが見つかりません",
    profileRequired: "イベントへの参加にはプロフィールの設定が必要です",
    failed: "イベントの操作に失敗しました",
    reminderTitle: (title: string) => `まもなく「${title}」が始まります`,
    reminderBody: (startsAt: string) => `${startsAt}開始です。参加の準備をしましょう。`,
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

/** What a broken listing or booking rule (a BookingError code) says to the person. */
export function bookingErrorMessage(code: string, reason?: string) {
  if (reason) return reason;
  const byCode: Record<string, string> = {
    listing_not_found: messages.tickets.listingNotFound,
    booking_not_found: messages.tickets.bookingNotFound,
    listing_paused: messages.tickets.listingPaused,
    listing_archived: messages.tickets.listingArchived,
    self_purchase: messages.tickets.selfPurchase,
    blocked: messages.tickets.blocked,
    start_in_past: messages.tickets.startTimeInPast,
    idempotency_conflict: messages.tickets.idempotencyConflict,
    unknown_game: messages.validation.unknownGame,
    profile_not_found: messages.profile.notSetUp,
    too_many_listings: messages.tickets.tooManyListings(LISTINGS_PER_SELLER_MAX),
  };
  return byCode[code] ?? coinErrorMessage(code);
}

/** What a broken review rule (a ReviewError code) says to the person. */
export function reviewErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    booking_not_found: messages.reviews.notFound,
    not_completed: messages.reviews.notCompleted,
    already_reviewed: messages.reviews.alreadyReviewed,
    tip_buyer_only: messages.reviews.tipBuyerOnly,
    blocked: messages.reviews.blocked,
  };
  return byCode[code] ?? coinErrorMessage(code);
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

/** What a broken post rule (a PostError code) says to the person. */
export function postErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    image_not_found: messages.posts.imageNotYours,
    profile_required: messages.posts.profileRequired,
    post_not_found: messages.posts.notFound,
    rate_limited: messages.posts.rateLimited,
    not_community_member: messages.posts.notCommunityMember,
  };
  return byCode[code] ?? messages.posts.failed;
}

/** What a broken subscription rule (a SubscriptionError code) says to the person. */
export function subscriptionErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    self_subscription: messages.subscriptions.selfSubscription,
    no_plan: messages.subscriptions.noPlan,
    blocked: messages.subscriptions.blocked,
    idempotency_conflict: messages.subscriptions.idempotencyConflict,
    profile_required: messages.profile.notSetUp,
  };
  return byCode[code] ?? coinErrorMessage(code);
}

/** What a broken payout rule (a PayoutError or the ledger's CoinError code) says to the person. */
export function payoutErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    insufficient_coins: messages.payouts.insufficient,
    idempotency_conflict: messages.payouts.idempotencyConflict,
    payout_not_found: messages.payouts.notFound,
    already_decided: messages.payouts.alreadyDecided,
    profile_required: messages.payouts.profileRequired,
  };
  return byCode[code] ?? coinErrorMessage(code);
}

/** What a broken event rule (an EventError code) says to the person. */
export function eventErrorMessage(code: string) {
  const byCode: Record<string, string> = {
    event_not_found: messages.events.notFound,
    event_full: messages.events.full,
    event_started: messages.events.started,
    profile_required: messages.events.profileRequired,
  };
  return byCode[code] ?? messages.events.failed;
}
