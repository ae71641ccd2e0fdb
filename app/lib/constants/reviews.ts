/** Reviews (docs/product.md#validation, #constants; docs/product.md#data). */
export const REVIEW_COMMENT_MAX = 500;
/** The review dialog's success state closes itself after this long (docs/product.md#states, #constants). */
export const REVIEW_SUCCESS_CLOSE_MS = 3_000;
/** The tip is chosen with the coin slider from 0 (docs/product.md#validation). */
export const REVIEW_TIP_MIN = 0;
export const REVIEWS_PAGE_SIZE = 10;
