/**
 * 1–5 stars as a radio group: keyboard operable (arrow keys), announced as 「4つ星（5段階中）」, and a plain form
 * field without JavaScript. Controlled in the dialog, uncontrolled on the page.
 */
export function StarRating({
  name,
  value,
  defaultValue,
  onChange,
  errorId,
  invalid,
}: {
  name: string;
  value?: number;
  /** The uncontrolled form's choice sent back after a refusal. */
  defaultValue?: number;
  onChange?: (rating: number) => void;
  errorId?: string;
  invalid?: boolean;
}) {
  return (
    <fieldset aria-describedby={invalid ? errorId : undefined}>
      <legend className="field-label">
        評価<span className="ml-1 text-xs font-normal text-red-600">必須</span>
      </legend>
      <div className="mt-1 flex gap-1">
        {[1, 2, 3, 4, 5].map((stars) => {
          const lit = value !== undefined && stars <= value;
          return (
            <label key={stars} className="relative cursor-pointer">
              <input
                type="radio"
                name={name}
                value={stars}
                // Over the star, transparent: the star is what is seen and clicked, the radio what is focused and read.
                className="peer absolute inset-0 size-full cursor-pointer appearance-none opacity-0"
                aria-invalid={invalid || undefined}
                {...(onChange ? { checked: value === stars, onChange: () => onChange(stars) } : { defaultChecked: defaultValue === stars })}
              />
              <span
                aria-hidden="true"
                className={`flex size-11 items-center justify-center rounded-lg text-3xl leading-none peer-focus-visible:ring-2 peer-focus-visible:ring-brand-600 peer-checked:bg-amber-50 ${
                  lit ? "text-amber-500" : "text-slate-400 peer-checked:text-amber-500"
                }`}
              >
                ★
              </span>
              <span className="sr-only">{stars}つ星（5段階中）</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** Stars as text for lists: 「★★★★☆ 4.0（12件）」; the accessible name says it in words. */
export function RatingSummary({ rating, className = "" }: { rating: { average: number | null; count: number }; className?: string }) {
  if (rating.average === null || rating.count === 0) return <span className={`text-xs text-slate-600 ${className}`}>レビューなし</span>;
  const rounded = Math.round(rating.average);
  return (
    <span className={`inline-flex items-center gap-1 text-sm ${className}`} role="img" aria-label={`評価 ${rating.average.toFixed(1)}（${rating.count}件）`}>
      <span aria-hidden="true" className="text-amber-500">
        {"★".repeat(rounded)}
        <span className="text-slate-300">{"★".repeat(5 - rounded)}</span>
      </span>
      <span aria-hidden="true" className="font-semibold">
        {rating.average.toFixed(1)}
      </span>
      <span aria-hidden="true" className="text-slate-600">
        （{rating.count}件）
      </span>
    </span>
  );
}
