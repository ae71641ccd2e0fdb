export const invalidCredentials = "メールアドレスまたはパスワードが正しくありません";
export const userExists = "このメールアドレスはすでに登録されています";
export const rateLimited = "ログインの試行回数が多すぎます。しばらくしてから再度お試しください。";
export const invalidSession = "認証状態が無効です。ページを再読み込みしてください。";
export const sessionExpired = "セッションの有効期限が切れました。再度ログインしてください。";
export const passwordTooShort = (min: number) => `パスワードは${min}文字以上で入力してください`;
export const crossOrigin = "このリクエストは受け付けられません";
export const failed = "処理に失敗しました。時間をおいて再度お試しください。";
