// 「ログイン中の端末」 (/settings/security, docs/product.md#sessions): what its forms' toasts say.
export const sessionSignedOut = "選んだ端末をログアウトしました";
export const othersSignedOut = "この端末以外のすべての端末からログアウトしました";
export const sessionNotFound = "その端末は見つかりません。すでにログアウトしている可能性があります。";
export const currentSession = "この端末は、画面上部の「ログアウト」からログアウトしてください";
