// The off-platform payment warning (docs/product.md#trust-and-safety), shown before a chat message or post that looks like one is sent.
export const title = "サイト外での支払いのお願いではありませんか？";
export const body =
  "銀行振込・PayPayなどの送金・ギフト券・直接取引でのお支払いはGamerMatchの補償の対象外で、トラブルの多い手口です。支払いはサイト内のコインで行ってください。送信すると運営の確認対象として記録されます。";
export const confirm = "このまま送信する";
export const cancel = "やめる";
export const quoteLabel = "送信しようとした内容";
export const imageDropped = "画像は送信されていません。もう一度選んでから送信してください。";
