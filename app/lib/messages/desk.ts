/** The operators' desk (/admin, ADR 071): its navigation, pages and decisions. Only operators ever see these. */
export const title = "運営デスク";
export const navLabel = "運営デスクのメニュー";
export const pageLabels = {
  reports: "レポート",
  users: "ユーザー",
  payouts: "出金",
  inquiries: "お問い合わせ",
  audit: "監査ログ",
} as const;
export const roleLabels = { moderator: "モデレーター", finance: "経理", admin: "管理者" } as const;
export const yourRoles = "あなたの役割";
export const openReports = (count: number) => `未対応 ${count}件`;
export const indexLead = "運営者の作業はここから行います。操作はすべて監査ログに記録されます。";
export const pageLeads = {
  reports: "未対応の通報を古い順に確認し、非表示・却下・利用停止などを判断します。",
  users: "会員をメールアドレス・表示名・IDで検索し、状態や取引を確認します。",
  payouts: "出金申請を確認し、振込の完了・却下を記録します。",
  inquiries: "お問い合わせを確認し、返信します。",
  audit: "運営者の操作の記録です。誰も編集・削除できません。",
} as const;
export const twoStepTitle = "二段階認証を設定してください";
export const twoStepBody =
  "運営デスクは、認証アプリによる二段階認証でログインした運営者だけが使えます。アカウントに認証アプリを登録してから、もう一度ログインしてください。";
export const twoStepLink = "セキュリティ設定で認証アプリを登録する";

// Forms and decisions.
export const reasonRequired = "理由を入力してください";
export const daysInvalid = (max: number) => `停止する日数を1〜${max}の整数で入力してください`;
export const rateLimited = "操作が多すぎます。しばらくしてからもう一度お試しください";
export const reasonLabel = "理由（監査ログに残ります。本人・通報者には伝わりません）";
export const daysLabel = "日数";
export const decisionLabels = {
  hide: "非表示にする",
  dismiss: "対応なしで閉じる",
  restore: "元に戻す",
  suspend: "利用停止（日数指定）",
  ban: "無期限の利用停止",
  lift: "利用停止を解除",
} as const;
export const decided = {
  hide: "非表示にしました",
  dismiss: "対応なしで閉じました",
  restore: "元に戻しました",
  suspend: "利用停止にしました",
  ban: "無期限の利用停止にしました",
  lift: "利用停止を解除しました",
} as const;
export const reportsSettled = (count: number) => `通報${count}件を判断済みにし、通報者に通知しました`;
export const alreadyHidden = "すでに非表示でした";
export const errors = {
  report_not_found: "通報が見つかりません",
  user_not_found: "ユーザーが見つかりません（退会済みを含む）",
  target_not_found: "通報された対象が見つかりません（削除済み）",
  user_not_hideable: "ユーザーは非表示にできません。利用停止を使ってください",
  already_decided: "この通報はすでに判断済みです",
  already_banned: "このユーザーはすでに無期限の利用停止中です",
  reason_required: "理由を1〜1000文字で入力してください",
  nothing_to_restore: "元に戻すもの（非表示・利用停止・保留中の出金）がありません",
  no_open_report: "未対応の通報がありません",
} as const;

// The report queue.
export const queueTitle = "レポート";
export const queueLead = "未対応の通報を、対象ごとに古い順で表示しています。";
export const queueEmpty = "未対応の通報はありません。";
export const filterReason = "理由";
export const filterType = "対象の種類";
export const filterAll = "すべて";
export const filterSubmit = "絞り込む";
export const reportCount = (count: number) => `通報${count}件`;
export const firstReported = "最初の通報";
export const owner = "持ち主";
export const offPlatformFlags = (count: number) => `外部取引の警告 ${count}回`;
export const open = "詳細を見る";
export const notes = "通報者のメモ";
export const noNote = "（メモなし）";
export const targetTitle = (label: string) => `通報された${label}`;
export const asViewersSaw = "閲覧者に見えていた内容";
export const hiddenAt = (at: string) => `${at}に非表示`;
export const removed = "削除済みです。";
export const noText = "（本文なし）";
export const pictureAlt = "通報された画像";
export const avatarAlt = "プロフィール画像";
export const reportsOfTarget = "この対象への通報";
export const ownerHistory = "持ち主への過去の処分";
export const ownerReports = "持ち主のほかの投稿・メッセージへの通報";
export const none = "ありません。";
export const decide = "判断する";
export const decideOwner = "持ち主への処分";
export const backToQueue = "レポート一覧へ戻る";
export const ownerPage = "持ち主のページ";
export const statusActive = "利用中";
export const statusLeft = "退会済み";
export const statusBanned = (since: string) => `無期限の利用停止中（${since}から）`;
export const statusSuspended = (until: string) => `${until}まで利用停止中`;
export const heldPayouts = (count: number) => `保留中の出金申請 ${count}件`;
export const actionLabels = { hide: "非表示", dismiss: "対応なし", suspend: "利用停止", ban: "無期限の利用停止", restore: "元に戻す" } as const;
export const until = (at: string) => `${at}まで`;
export const invalidDecision = "判断の種類を選んでください";

// People.
export const usersTitle = "ユーザー";
export const usersLead = "メールアドレス・表示名・ユーザーIDで検索します。";
export const searchLabel = "メールアドレス・表示名・ID";
export const searchSubmit = "検索";
export const searchEmpty = "見つかりませんでした。";
export const personTitle = (name: string) => `${name}さんの記録`;
export const email = "メールアドレス";
export const noEmail = "（なし）";
export const joined = "登録日";
export const userId = "ユーザーID";
export const status = "状態";
export const coins = "コイン残高";
export const coinsBreakdown = (purchased: string, earned: string) => `購入 ${purchased}・獲得 ${earned}`;
export const ledger = "最近のコイン履歴";
export const listings = "チケット";
export const listingStatus = { active: "公開中", paused: "停止中", archived: "終了" } as const;
export const hidden = "非表示";
export const bookings = "進行中の予約";
export const bookingRole = { buyer: "購入者として", seller: "出品者として" } as const;
export const bookingStatus = { pending: "承認待ち", accepted: "承認済み", in_progress: "実施中", completed: "完了", cancelled: "キャンセル" } as const;
export const reportsAgainst = "この人への通報";
export const reportsBy = "この人が送った通報";
export const sanctions = "処分の履歴";
export const sanctionTitle = "この人への処分";
export const coinUnit = (amount: string) => `${amount}コイン`;
export const backToUsers = "ユーザー検索へ戻る";
export const offPlatformLabel = "外部取引の警告";

// The audit trail.
export const auditTitle = "監査ログ";
export const auditLead = "運営者の操作を新しい順に表示します。この記録は誰も編集・削除できません。";
export const auditOperator = "運営者のユーザーID";
export const auditTargetType = "対象の種類";
export const auditTargetId = "対象のID";
export const auditKind = "操作";
export const auditEmpty = "記録はありません。";
export const auditOlder = "さらに古い記録";
export const auditNewest = "最新に戻る";
export const auditWhen = "日時";
export const auditWho = "運営者";
export const auditWhat = "操作";
export const auditOn = "対象";
export const auditWhy = "理由";
export const auditKinds = {
  role_granted: "役割の付与",
  role_revoked: "役割の解除",
  report_decided: "通報の判断",
  sanction: "利用停止・解除",
  payout_paid: "出金の完了",
  payout_rejected: "出金の却下",
  bank_details_revealed: "口座情報の表示",
  inquiry_replied: "お問い合わせへの返信",
  inquiry_closed: "お問い合わせの完了",
  inquiry_reopened: "お問い合わせの再開",
  two_step_off: "二段階認証の解除",
} as const;
export const auditTargets = { user: "ユーザー", post: "投稿", chat_message: "チャットのメッセージ", listing: "チケット", review: "レビュー", payout: "出金申請", inquiry: "お問い合わせ" } as const;
