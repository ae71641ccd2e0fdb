// `/settings/privacy`: showing the Discord servers shared with another gamer on profiles.
export const settingsTitle = "プライバシー";
export const settingsMetaTitle = "プライバシー設定";
export const showGuildsLabel = "共通のDiscordサーバーをプロフィールに表示する";
export const settingsSave = "保存";
export const settingsSaved = "プライバシー設定を保存しました";
export const settingsBack = "設定へ戻る";

/** What is kept and who sees it, said in full beside the box: the box is the consent. */
export const guildsKeptTitle = "保存する情報";
export const guildsKept = [
  "Discordでログインしたとき、またはDiscordを連携したときに、参加しているDiscordサーバーの名前・ID・アイコンを保存します。",
  "保存した内容は、Discordでログインするたびに最新のものに置き換えます。",
  "Discordの連携を解除したとき、または退会したときに削除します。",
  "表示するのは、ログインしていて、この設定をオンにしているゲーマーにだけです。あなたと相手の両方が参加しているサーバーだけを、お互いのプロフィールに表示します。",
  "Discordのそのほかの情報（参加しているほかのサーバー、メッセージ、フレンドなど）は表示しません。",
] as const;
export const storedGuilds = (count: number) => `保存しているサーバー: ${count}件`;
export const noStoredGuilds =
  "保存しているサーバーはありません。Discordでログインするか、設定からDiscordを連携すると保存されます。";
