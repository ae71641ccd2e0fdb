export const notFound = "ユーザーが見つかりません";
export const blocked = "ブロックしました";
export const unblocked = "ブロックを解除しました";
