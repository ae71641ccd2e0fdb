export const listingNotFound = "チケットが見つかりません";
export const listingPaused = "このチケットは現在受付を停止しています";
export const listingArchived = "アーカイブしたチケットは変更できません";
export const tooManyListings = (max: number) => `出品できるチケットは${max}件までです。使わないチケットをアーカイブしてください`;
export const saved = "チケットを保存しました";
export const paused = "チケットの受付を停止しました";
export const resumed = "チケットの受付を再開しました";
export const archived = "チケットをアーカイブしました";
