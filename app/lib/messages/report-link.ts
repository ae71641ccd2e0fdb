// The 「通報する」 link's words (docs/product.md#trust-and-safety), apart from the report form's (./reports): the link is on every page with
// a post, a profile, a review, a message or a listing, and its module then carries only these to each of them.
export const action = "通報する";
/** What is reported, as the link's accessible name says it: 「〇〇さんの投稿を通報する」 (a user: 「〇〇さんを通報する」). */
const things = { user: "", post: "の投稿", chat_message: "のメッセージ", listing: "のチケット", review: "のレビュー" } as const;
export const label = (type: keyof typeof things, name: string) => `${name}さん${things[type]}を通報する`;
