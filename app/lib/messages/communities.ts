export const joined = (name: string) => `「${name}」に参加しました`;
export const left = (name: string) => `「${name}」から退会しました`;
export const notFound = "コミュニティが見つかりません";
export const profileRequired = "参加するにはプロフィールを設定してください";
