import { createContext, lazy, Suspense, useContext, useMemo, useState, type ReactNode } from "react";
import { reviewPath } from "~/lib/paths";
import type { ReviewTarget } from "~/lib/review-form";
import { DialogLink } from "./dialog-link";

/** Told to the page when a review was sent (the `submitted` of docs/product.md#states, with the booking id): lists reload. */
export const REVIEW_SUBMITTED_EVENT = "gm:review-submitted";

interface ReviewDialogState {
  openReview(target: ReviewTarget): void;
}

const ReviewDialogContext = createContext<ReviewDialogState>({ openReview: () => {} });
export const useReviewDialog = () => useContext(ReviewDialogContext);

// The dialog's code loads the first time one opens, not with every page.
const ReviewDialog = lazy(() => import("./review-dialog-body"));

/** The review dialog (the global overlay of docs/product.md#screens), opened from a completed booking. */
export function ReviewDialogProvider({ children }: { children: ReactNode }) {
  const [target, setTarget] = useState<ReviewTarget | null>(null);
  const value = useMemo(() => ({ openReview: setTarget }), []);
  return (
    <ReviewDialogContext.Provider value={value}>
      {children}
      {target ? (
        <Suspense fallback={null}>
          <ReviewDialog
            key={target.bookingId}
            target={target}
            onClose={() => setTarget(null)}
            onSubmitted={(bookingId) => window.dispatchEvent(new CustomEvent(REVIEW_SUBMITTED_EVENT, { detail: { bookingId } }))}
          />
        </Suspense>
      ) : null}
    </ReviewDialogContext.Provider>
  );
}

/** A link to the review page that, once JavaScript runs, opens the dialog instead. */
export function ReviewLink({ target, className, children }: { target: ReviewTarget; className: string; children: ReactNode }) {
  const { openReview } = useReviewDialog();
  return (
    <DialogLink to={reviewPath(target.bookingId)} onOpen={() => openReview(target)} className={className}>
      {children}
    </DialogLink>
  );
}
