/** Reviews (SPEC §5, §9; PRODUCT §4). */
export const REVIEW_COMMENT_MAX = 500;
/** The review dialog's success state closes itself after this long (SPEC §4, §9). */
export const REVIEW_SUCCESS_CLOSE_MS = 3_000;
/** The tip is chosen with the coin slider from 0 (SPEC §5). */
export const REVIEW_TIP_MIN = 0;
export const REVIEWS_PAGE_SIZE = 10;
