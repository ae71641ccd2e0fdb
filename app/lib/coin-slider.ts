import { COIN_SLIDER_DEFAULT_MAX, COIN_SLIDER_DEFAULT_MIN, COIN_SLIDER_STEPS, COIN_SLIDER_TIERS } from "./constants";

/** The coin slider's steps between `min` and `max` (docs/product.md#validation): 100 … 50,000 by default; the review tip starts at 0. */
export function coinSliderSteps({ min = COIN_SLIDER_DEFAULT_MIN, max = COIN_SLIDER_DEFAULT_MAX }: { min?: number; max?: number } = {}) {
  return (COIN_SLIDER_STEPS as readonly number[]).filter((step) => step >= min && step <= max);
}

/** The colour tier of an amount: below 500, from 500, from 10,000 (docs/product.md#validation). */
export function coinTier(amount: number): "low" | "mid" | "high" {
  if (amount >= COIN_SLIDER_TIERS.high) return "high";
  if (amount >= COIN_SLIDER_TIERS.mid) return "mid";
  return "low";
}

/** The step nearest to `value` (a value that is not a step, or none, lands on a step). */
export function nearestStep(steps: readonly number[], value: number | null | undefined) {
  if (value === null || value === undefined || !Number.isFinite(value)) return steps[0]!;
  return steps.reduce((best, step) => (Math.abs(step - value) < Math.abs(best - value) ? step : best), steps[0]!);
}
