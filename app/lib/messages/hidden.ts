// Content the operators hid (docs/product.md#trust-and-safety): shown to its author alone, with this mark.
export const badge = "運営により非表示";
export const explanation = "運営により非表示になっています。ほかのユーザーには表示されません。";
