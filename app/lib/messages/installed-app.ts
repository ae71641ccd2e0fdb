/** The offline page (app/lib/offline-page.ts) and the notification a push without a readable payload shows. */
export const offlineTitle = "オフラインです";
export const offlineBody = "インターネットに接続されていないようです。接続を確かめてから、もう一度お試しください。";
export const offlineRetry = "再試行";
export const pushFallbackBody = "新しいお知らせがあります";
