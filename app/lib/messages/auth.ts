import { banned } from "./moderation";
export const invalidCredentials = "メールアドレスまたはパスワードが正しくありません";
export const userExists = "このメールアドレスはすでに登録されています";
export const rateLimited = "ログインの試行回数が多すぎます。しばらくしてから再度お試しください。";
// Shown by the shell on every page: it lives with the shell's error messages, so this module stays out of the shell.
export { invalidSession } from "./error";
export const sessionExpired = "セッションの有効期限が切れました。再度ログインしてください。";
export const passwordTooShort = (min: number) => `パスワードは${min}文字以上で入力してください`;
export const crossOrigin = "このリクエストは受け付けられません";
export const failed = "処理に失敗しました。時間をおいて再度お試しください。";
export const linkInvalid = "リンクが無効か、有効期限が切れています。お手数ですが、もう一度お手続きください。";
export const emailNotConfirmed = "メールアドレスの確認が完了していません。確認メールのリンクを開いてください。";
export const currentPasswordRequired = "現在のパスワードを入力してください";
export const currentPasswordWrong = "現在のパスワードが正しくありません";
export const samePassword = "新しいパスワードは現在のものと別のものにしてください";
export const sameEmail = "現在と同じメールアドレスです";
export const mailRateLimited = "メールの送信回数が多すぎます。しばらくしてから再度お試しください。";
export const passwordChanged = "パスワードを変更しました。ほかの端末はログアウトされました。";
export const emailChanged = "メールアドレスを変更しました";
export const emailConfirmed = "メールアドレスを確認しました。ようこそGamerMatchへ！";
export const recoverySent =
  "ご入力のアドレスが登録されている場合、パスワード再設定用のメールを送信しました。メールのリンクは1時間有効です。届かない場合は迷惑メールフォルダもご確認ください。";
export const emailChangeSent = (email: string) =>
  `${email} に確認メールを送信しました。メールのリンクを開くと変更が完了します（24時間有効）。`;
export const signupConfirmSent =
  "確認メールを送信しました。メールのリンクを開いて登録を完了してください（24時間有効）。届かない場合は迷惑メールフォルダもご確認ください。";
export const passwordsDiffer = "確認用のパスワードが一致しません";
export const unsupportedField = (field: string) => `「${field}」の変更には対応していません`;
export const phoneUnsupported = "電話番号でのログインには対応していません";
export const metadataTooLarge = "ユーザー情報が大きすぎます";
// Discordでログイン: what the embedded auth says in its errors, and what /login and the settings show.
export const providerDisabled = "このログイン方法には対応していません";
export const pkceRequired = "PKCEのコードチャレンジが必要です";
export const oauthCodeInvalid = "ログインのコードが無効か、すでに使われています。もう一度ログインしてください。";
export const oauthCodeExpired = "ログインの有効期限が切れました。もう一度ログインしてください。";
export const codeVerifierMismatch = "コード検証子が一致しません。もう一度ログインしてください。";
export const discordCancelled = "Discordでのログインがキャンセルされました。";
export const discordFlowExpired = "Discordでのログインの有効期限が切れたか、すでに完了しています。もう一度お試しください。";
export const discordUnavailable = "Discordに接続できませんでした。しばらくしてから再度お試しください。";
export const discordEmailTaken =
  "このDiscordアカウントのメールアドレスはすでに登録されています。メールアドレスとパスワードでログインし、設定の「アカウント」からDiscordを連携してください。";
export const discordEmailUnverified = "Discordでメールアドレスの確認が済んでいません。Discordでメールアドレスを確認してから、もう一度お試しください。";
export const discordNoEmail = "Discordアカウントにメールアドレスが登録されていません。Discordでメールアドレスを登録してから、もう一度お試しください。";
export const discordLinkedElsewhere = "このDiscordアカウントは別のアカウントに連携されています。";
export const discordAlreadyLinked = "このアカウントには別のDiscordアカウントが連携されています。解除してから連携してください。";
export const discordAccountGone = "このアカウントは利用できません。";
export const identityNotFound = "連携が見つかりません";
export const lastSignInMethod = "ほかにログインする方法がないため、連携を解除できません。先にパスワードを設定してください。";
export const emailIdentityNotDeletable = "メールアドレスでのログインは解除できません";
/** A new account made by Discord, when Discord's name will not do (empty, or not a valid name). */
export const discordFallbackName = "Discordユーザー";
export const discordLinked = "Discordを連携しました";
export const discordUnlinked = "Discordの連携を解除しました";
/** What /login (or the settings toast) says when a Discord sign-in or link did not happen, by kind (app/http/auth.server.ts). */
export const discordError = {
  cancelled: discordCancelled,
  expired: discordFlowExpired,
  unavailable: discordUnavailable,
  email_taken: discordEmailTaken,
  email_unverified: discordEmailUnverified,
  no_email: discordNoEmail,
  linked_elsewhere: discordLinkedElsewhere,
  already_linked: discordAlreadyLinked,
  banned,
  gone: discordAccountGone,
  failed: "Discordでログインできませんでした。もう一度お試しください。",
};
// Two-step verification (TOTP factors, ADR 063): what the embedded auth says in its errors.
export const mfaFactorNotFound = "認証アプリが見つかりません";
export const mfaFactorNameConflict = "同じ名前の認証アプリがすでに登録されています";
export const mfaTooManyFactors = "登録できる認証アプリの上限に達しています。不要なものを削除してください。";
export const mfaInsufficientAal = "この操作には認証アプリでの確認が必要です";
export const mfaChallengeExpired = "確認の有効期限が切れました。もう一度お試しください。";
export const mfaIpAddressMismatch = "確認を始めた端末と異なるため受け付けられません。もう一度お試しください。";
export const mfaVerificationFailed = "確認コードが正しくありません";
export const mfaRateLimited = "確認の試行回数が多すぎます。しばらくしてから再度お試しください。";
export const mfaFactorTypeInvalid = "factor_type は totp を指定してください";
export const mfaCodeRequired = "確認コードを入力してください";
export const mfaFactorIdInvalid = "factor_id はUUIDで指定してください";
export const mfaFriendlyNameTooLong = (max: number) => `名前は${max}文字以内で入力してください`;
// 二段階認証 in the app (ADR 064): the code page, /settings/security and the refusals of a session that owes its
// second step.
export const secondStepRequired = "二段階認証を完了してください";
export const mfaCodeFormat = "6桁の数字を入力してください";
export const recoveryCodeFormat = "リカバリーコードは「xxxxx-xxxxx」の形で入力してください";
export const recoveryCodeWrong = "リカバリーコードが正しくないか、すでに使われています";
export const recoveryCodeUsed = "リカバリーコードでログインしました。二段階認証は解除されています。新しい端末でもう一度設定してください。";
export const mfaEnrolmentGone = "設定の有効期限が切れました。もう一度はじめからお試しください。";
