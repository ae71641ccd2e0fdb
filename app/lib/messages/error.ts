export const title = "エラーが発生しました";
export const body = "問題が発生しました。時間をおいて再度お試しください。";
export const back = "前のページに戻る";
export const top = "トップページへ";
export const unavailableTitle = "ただいまご利用いただけません";
export const notFoundTitle = "ページが見つかりません";
export const notFoundBody = "お探しのページは移動または削除された可能性があります。";
/** A session the auth server refused (docs/product.md#errors). */
export const invalidSession = "認証状態が無効です。ページを再読み込みしてください。";

/** The messages of a 404 (docs/product.md#errors): an unmatched path, and a route whose params are invalid. */
export const notFoundMessage = (path: string) => `Page not found: ${path}`;
export const invalidRouteMessage = (path: string) => `Page Not Found: ${path}`;
/** The database out of reach: the API's own words (the server's 503 carries them too). */
export { databaseUnavailable as unavailableBody } from "./api";
