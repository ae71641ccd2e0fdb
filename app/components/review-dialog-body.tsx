import { useEffect, useMemo, useRef, useState } from "react";
import { ApiError } from "~/lib/api-client";
import { counterpartLabel } from "~/lib/booking-rules";
import { reviewErrorMessage } from "~/lib/error-messages";
import { messages } from "~/lib/messages";
import { canSubmitReview, createReviewFlow, initialReviewState, type ReviewState, type ReviewTarget } from "~/lib/review-form";
import { useAuth } from "./auth-provider";
import { COINS_CHANGED_EVENT } from "./coin-purchase";
import { Avatar } from "./presence";
import { ReviewCommentField, ReviewErrorAlert, ReviewTipField } from "./review-fields";
import { StarRating } from "./star-rating";

/**
 * The review dialog itself (docs/product.md#screens, #states, #validation): a modal `<dialog>` over the page. Its rules and its flow live in
 * ~/lib/review-form; this renders them.
 */
export default function ReviewDialogBody({
  target,
  onClose,
  onSubmitted,
}: {
  target: ReviewTarget;
  onClose: () => void;
  onSubmitted: (bookingId: string) => void;
}) {
  const { api } = useAuth();
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, setState] = useState<ReviewState>(initialReviewState);
  const flow = useMemo(
    () =>
      createReviewFlow({
        target,
        onChange: setState,
        onClose,
        onSubmitted,
        readBalance: () =>
          api.get<{ totalBalance: number }>("/api/coins/balance").then(
            (body) => body?.totalBalance ?? null,
            () => null,
          ),
        send: async (review) => {
          try {
            await api.post("/api/reviews", review);
            if (review.tipAmount > 0) window.dispatchEvent(new Event(COINS_CHANGED_EVENT));
            return { ok: true };
          } catch (error) {
            const code = error instanceof ApiError ? error.code : undefined;
            return { ok: false, insufficient: code === "insufficient_coins", message: code && code !== "invalid_input" ? reviewErrorMessage(code) : undefined };
          }
        },
      }),
    // One flow per dialog: the provider mounts a new one per booking.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const role = counterpartLabel(!target.isBuyer);
  const busy = state.phase === "submitting";

  return (
    <dialog
      ref={dialog}
      aria-labelledby="review-dialog-title"
      onClose={() => flow.close()}
      className="m-auto w-[min(32rem,calc(100%-1.5rem))] rounded-2xl bg-white p-0 shadow-xl backdrop:bg-slate-900/50"
    >
      <div className="space-y-4 p-4 sm:p-6">
        <div className="flex items-center justify-between gap-3">
          <h2 id="review-dialog-title" className="text-lg font-bold">
            レビューを書く
          </h2>
          <button type="button" className="rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100" onClick={() => dialog.current?.close()}>
            閉じる
          </button>
        </div>
        <div className="flex items-center gap-3">
          <Avatar name={target.counterpart.displayName} src={target.counterpart.avatar} />
          <div>
            <p className="text-xs text-slate-600">{role}</p>
            <p className="font-semibold">{target.counterpart.displayName}</p>
          </div>
        </div>
        {state.phase === "success" ? (
          <p role="status" className="rounded-lg bg-green-50 px-4 py-6 text-center font-semibold text-green-800">
            {messages.reviews.sent}
          </p>
        ) : (
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              void flow.submit();
            }}
          >
            <StarRating name="rating" value={state.rating} onChange={(rating) => flow.setRating(rating)} />
            <ReviewCommentField id="review-comment" value={state.comment} onChange={(comment) => flow.setComment(comment)} />
            {target.isBuyer ? <ReviewTipField defaultValue={state.tipAmount} onChange={(tip) => flow.setTip(tip)} /> : null}
            <ReviewErrorAlert error={state.error} insufficient={state.insufficient} />
            <button type="submit" className="btn-primary w-full" disabled={!canSubmitReview(state)} aria-busy={busy || undefined}>
              {busy ? "送信中…" : "レビューを送信する"}
            </button>
          </form>
        )}
      </div>
    </dialog>
  );
}
