import { REVIEW_COMMENT_MAX, REVIEW_SUCCESS_CLOSE_MS } from "./constants";
import { messages } from "./messages";

/**
 * The review dialog's rules and flow (docs/product.md#states, #validation), apart from React so unit tests drive them with fake timers:
 * 1–5 stars (submit disabled at 0), a comment trimmed to at most 500 characters with a counter, a tip for the buyer
 * only; with a tip above 0 the balance is read first and a balance below it stops with 「コインが足りません」;
 * editing → submitting → success, and success closes itself after 3 s, emits submitted with the booking id, then
 * resets the form.
 */

export type ReviewPhase = "editing" | "submitting" | "success";

export interface ReviewState {
  phase: ReviewPhase;
  rating: number;
  comment: string;
  tipAmount: number;
  error: string | null;
  /** The error is a shortage of coins: the dialog offers to buy some. */
  insufficient: boolean;
}

export const initialReviewState: ReviewState = { phase: "editing", rating: 0, comment: "", tipAmount: 0, error: null, insufficient: false };

/** What the counter shows: the trimmed length against the limit. */
export const commentCount = (comment: string) => comment.trim().length;
export const commentCounter = (comment: string) => `${commentCount(comment)}/${REVIEW_COMMENT_MAX}`;
export const commentTooLong = (comment: string) => commentCount(comment) > REVIEW_COMMENT_MAX;

/** Whether the form may be sent now. */
export const canSubmitReview = (state: ReviewState) => state.phase === "editing" && state.rating >= 1 && state.rating <= 5 && !commentTooLong(state.comment);

export interface ReviewTarget {
  bookingId: string;
  /** The viewer's side of the booking: only the buyer may tip (docs/product.md#roles). */
  isBuyer: boolean;
  counterpart: { displayName: string; avatar: string | null };
}

/** What sending the review answered: done, or refused with a message from the server. */
export type SendResult = { ok: true } | { ok: false; message?: string; insufficient?: boolean };

export interface ReviewFlow {
  state(): ReviewState;
  setRating(rating: number): void;
  setComment(comment: string): void;
  setTip(tipAmount: number): void;
  submit(): Promise<void>;
  /** Closed by hand (Escape, the close button): a review already sent is still announced; the form resets. */
  close(): void;
}

export function createReviewFlow({
  target,
  send,
  readBalance,
  onChange,
  onSubmitted,
  onClose,
  schedule = (run, ms) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
}: {
  target: ReviewTarget;
  send: (review: { bookingId: string; rating: number; comment: string; tipAmount: number }) => Promise<SendResult>;
  /** The current totalBalance (a fresh read, not a cached figure); null when it could not be read. */
  readBalance: () => Promise<number | null>;
  onChange: (state: ReviewState) => void;
  onSubmitted: (bookingId: string) => void;
  onClose: () => void;
  schedule?: (run: () => void, ms: number) => () => void;
}): ReviewFlow {
  let state = initialReviewState;
  let cancelClose: (() => void) | null = null;
  const set = (next: Partial<ReviewState>) => {
    state = { ...state, ...next };
    onChange(state);
  };
  const editing = () => state.phase === "editing";

  return {
    state: () => state,
    setRating: (rating) => editing() && set({ rating: Math.max(0, Math.min(5, Math.round(rating))), error: null }),
    setComment: (comment) => editing() && set({ comment, error: null }),
    setTip: (tipAmount) => editing() && target.isBuyer && set({ tipAmount, error: null, insufficient: false }),
    async submit() {
      if (!canSubmitReview(state)) return;
      const tipAmount = target.isBuyer ? state.tipAmount : 0;
      set({ phase: "submitting", error: null, insufficient: false });
      if (tipAmount > 0) {
        const balance = await readBalance();
        if (balance === null || balance < tipAmount) {
          set({ phase: "editing", error: messages.coins.insufficient, insufficient: balance !== null });
          return;
        }
      }
      let result: SendResult;
      try {
        result = await send({ bookingId: target.bookingId, rating: state.rating, comment: state.comment.trim(), tipAmount });
      } catch {
        result = { ok: false };
      }
      if (!result.ok) {
        const message = result.insufficient ? messages.coins.insufficient : result.message ? `${messages.reviews.failed}（${result.message}）` : messages.reviews.failed;
        set({ phase: "editing", error: message, insufficient: !!result.insufficient });
        return;
      }
      set({ phase: "success" });
      cancelClose = schedule(() => {
        cancelClose = null;
        onClose();
        onSubmitted(target.bookingId);
        state = initialReviewState;
        onChange(state);
      }, REVIEW_SUCCESS_CLOSE_MS);
    },
    close() {
      if (cancelClose) {
        cancelClose();
        cancelClose = null;
        onSubmitted(target.bookingId);
      }
      state = initialReviewState;
      onClose();
    },
  };
}
