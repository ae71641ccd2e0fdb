export const title = "エラーが発生しました";
export const body = "問題が発生しました。時間をおいて再度お試しください。";
export const back = "前のページに戻る";
export const top = "トップページへ";
export const notFoundTitle = "ページが見つかりません";
export const notFoundBody = "お探しのページは移動または削除された可能性があります。";
