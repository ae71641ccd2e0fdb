import { useId, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { coinSliderSteps, coinTier, nearestStep } from "~/lib/coin-slider";
import { formatNumber } from "~/lib/format";
import { ErrorList } from "./forms";

const tierClasses = {
  low: { text: "text-slate-800", accent: "accent-slate-600", badge: "bg-slate-100 text-slate-800" },
  mid: { text: "text-brand-700", accent: "accent-brand-600", badge: "bg-brand-50 text-brand-700" },
  high: { text: "text-amber-900", accent: "accent-amber-600", badge: "bg-amber-100 text-amber-900" },
} as const;

/**
 * The coin slider (docs/product.md#validation): an amount of coins chosen from fixed steps, coloured by tier (from 500 and from
 * 10,000). Before JavaScript runs (and without it) it is a plain `<select>` of the same steps under the same name,
 * so the form posts the same value either way. Listing prices use min 100; the review tip uses min 0.
 */
export function CoinSlider({
  name,
  label,
  defaultValue,
  min,
  max,
  errors,
  describedBy,
  onChange,
}: {
  name: string;
  label: string;
  defaultValue?: number | null;
  min?: number;
  max?: number;
  errors?: string[];
  describedBy?: string;
  onChange?: (value: number) => void;
}) {
  const hydrated = useHydrated();
  const steps = coinSliderSteps({ min, max });
  const [value, setValue] = useState(() => nearestStep(steps, defaultValue ?? steps[0]));
  const id = useId();
  const errorId = `${id}-error`;
  const tier = tierClasses[coinTier(value)];
  const choose = (next: number) => {
    setValue(next);
    onChange?.(next);
  };
  const described = [errors?.length ? errorId : null, describedBy].filter(Boolean).join(" ") || undefined;

  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {hydrated ? (
        <div className="mt-1 space-y-2" data-coin-tier={coinTier(value)}>
          <p className={`text-2xl font-bold ${tier.text}`} aria-hidden="true">
            {formatNumber(value)}
            <span className="ml-1 text-sm font-semibold">コイン</span>
          </p>
          <input
            id={id}
            type="range"
            min={0}
            max={steps.length - 1}
            step={1}
            value={steps.indexOf(value)}
            onChange={(event) => choose(steps[Number(event.target.value)]!)}
            aria-valuetext={`${formatNumber(value)}コイン`}
            aria-invalid={errors?.length ? true : undefined}
            aria-describedby={described}
            className={`w-full ${tier.accent}`}
          />
          <div className="flex justify-between text-xs text-slate-600" aria-hidden="true">
            <span>{formatNumber(steps[0]!)}</span>
            <span>{formatNumber(steps[steps.length - 1]!)}</span>
          </div>
          <input type="hidden" name={name} value={value} />
        </div>
      ) : (
        <select
          id={id}
          name={name}
          defaultValue={String(value)}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={described}
          className="field-input mt-1"
        >
          {steps.map((step) => (
            <option key={step} value={step}>
              {formatNumber(step)}コイン
            </option>
          ))}
        </select>
      )}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}
