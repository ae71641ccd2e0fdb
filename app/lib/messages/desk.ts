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
