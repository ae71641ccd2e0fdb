export const welcomeTitle = "GamerMatchへようこそ！";
export const welcomeBody = "プロフィールの登録が完了しました。一緒に遊べるゲーマーを探してみましょう。";
export const chatStartedTitle = (name: string) => `${name}さんがチャットを始めました`;
export const chatStartedBody = "メッセージを確認してみましょう。";
export const allRead = "すべての通知を既読にしました";
