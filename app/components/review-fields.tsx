import { REVIEW_COMMENT_MAX, REVIEW_TIP_MIN } from "~/lib/constants";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { commentCounter, commentTooLong } from "~/lib/review-form";
import { BuyCoinsLink } from "./coin-purchase";
import { CoinSlider } from "./coin-slider";
import { ErrorList } from "./forms";

/**
 * The fields a review shares between the dialog (controlled by the review flow, with a live counter) and its page
 * twin for a browser without JavaScript (a plain form, its values and errors from the action).
 */

/** コメント（任意）: with `value` the dialog's controlled box and live counter; else the page's plain one and its hint. */
export function ReviewCommentField({
  id,
  value,
  onChange,
  defaultValue,
  errors,
}: {
  id: string;
  value?: string;
  onChange?: (comment: string) => void;
  defaultValue?: string;
  errors?: string[];
}) {
  const hintId = `${id}-hint`;
  const tooLong = value !== undefined && commentTooLong(value);
  return (
    <div>
      <label htmlFor={id} className="field-label">
        コメント（任意）
      </label>
      <textarea
        id={id}
        name="comment"
        rows={4}
        {...(value !== undefined ? { value, onChange: (event) => onChange?.(event.target.value) } : { defaultValue: defaultValue ?? "" })}
        aria-describedby={hintId}
        aria-invalid={tooLong || errors?.length ? true : undefined}
        className="field-input"
      />
      {value !== undefined ? (
        <p id={hintId} className={`mt-1 text-right text-xs ${tooLong ? "font-semibold text-red-700" : "text-slate-600"}`}>
          {commentCounter(value)}
          {tooLong ? `（${messages.validation.maxLength(REVIEW_COMMENT_MAX)}）` : null}
        </p>
      ) : (
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          {REVIEW_COMMENT_MAX}文字以内
        </p>
      )}
      <ErrorList errors={errors} />
    </div>
  );
}

/** チップ（任意）, the buyer's alone (docs/product.md#roles); the page also shows the balance it reads. */
export function ReviewTipField({
  defaultValue,
  onChange,
  errors,
  balance,
}: {
  defaultValue: number;
  onChange?: (tip: number) => void;
  errors?: string[];
  balance?: number;
}) {
  return (
    <div>
      <CoinSlider name="tipAmount" label="チップ（任意）" min={REVIEW_TIP_MIN} defaultValue={defaultValue} onChange={onChange} errors={errors} />
      <p className="mt-1 text-xs text-slate-600">
        チップは手数料を差し引いて販売者の売上になります。{balance !== undefined ? `残高：${formatNumber(balance)}コイン` : null}
      </p>
    </div>
  );
}

/** Why the review was not sent; a shortage of coins offers to buy some. */
export function ReviewErrorAlert({ error, insufficient }: { error: string | null | undefined; insufficient: boolean }) {
  if (!error) return null;
  return (
    <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
      {error}
      {insufficient ? <BuyCoinsLink className="ml-2 font-semibold underline">コインを購入</BuyCoinsLink> : null}
    </p>
  );
}
