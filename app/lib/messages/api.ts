export const authRequired = "認証が必要です";
export const notFound = "リソースが見つかりません";
export const failed = "処理に失敗しました";
export const overloaded = "ただいま混み合っています。少し待ってからもう一度お試しください";
/** A replica that is shutting down (a deployment) refuses new work; the load balancer sends it elsewhere. */
export const restarting = "サーバーを再起動しています。少し待ってからもう一度お試しください";
/** The database is out of reach (a restart, an outage): the request did nothing; the client tries again later. */
export const databaseUnavailable = "ただいまサーバーに接続できません。少し待ってからもう一度お試しください";
