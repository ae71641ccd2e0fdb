import { describe, expect, it } from "vitest";
import { coinSliderSteps, coinTier, nearestStep } from "~/lib/coin-slider";
import { desiredStartTimeSchema, purchaseSchema } from "~/lib/validation/booking";
import { coinStep } from "~/lib/validation/fields";
import { listingSchema } from "~/lib/validation/listing";

describe("the coin slider (docs/product.md#validation)", () => {
  it("has the steps from 100 to 50,000 by default, and from 0 for a tip", () => {
    expect(coinSliderSteps()).toEqual([100, 300, 500, 1000, 2000, 5000, 10000, 20000, 30000, 50000]);
    expect(coinSliderSteps({ min: 0 })[0]).toBe(0);
    expect(coinSliderSteps({ min: 100, max: 1000 })).toEqual([100, 300, 500, 1000]);
  });

  it("colours amounts in tiers from 500 and from 10,000", () => {
    expect([0, 300, 499, 500, 9999, 10000, 50000].map(coinTier)).toEqual(["low", "low", "low", "mid", "mid", "high", "high"]);
  });

  it("lands a value that is not a step on the nearest step", () => {
    const steps = coinSliderSteps();
    expect(nearestStep(steps, 450)).toBe(500);
    expect(nearestStep(steps, null)).toBe(100);
    expect(nearestStep(steps, Number.NaN)).toBe(100);
  });

  it("accepts only steps, from the minimum, as JSON numbers or form text", () => {
    const price = coinStep(100);
    expect(price.safeParse(500).success).toBe(true);
    expect(price.safeParse("1000").success).toBe(true);
    expect(price.safeParse(0).success).toBe(false);
    expect(price.safeParse(400).success).toBe(false);
    expect(price.safeParse(100.5).success).toBe(false);
    expect(coinStep(0).safeParse(0).success).toBe(true);
  });
});

describe("listing and purchase input", () => {
  it("a listing needs a title, a game, a slider price, one of the five durations and 1–8 slots", () => {
    const valid = { title: " ランク上げ ", gameSlug: "apex-legends", pricePerUnit: "500", minutesPerUnit: "60", maxUnits: "2" };
    expect(listingSchema.parse(valid)).toEqual({ title: "ランク上げ", gameSlug: "apex-legends", description: "", pricePerUnit: 500, minutesPerUnit: 60, maxUnits: 2 });
    expect(listingSchema.safeParse({ ...valid, minutesPerUnit: "45" }).success).toBe(false);
    expect(listingSchema.safeParse({ ...valid, maxUnits: "9" }).success).toBe(false);
    expect(listingSchema.safeParse({ ...valid, title: "x".repeat(61) }).success).toBe(false);
  });

  it("reads a desired start time below 1e12 as seconds, above as milliseconds, and a datetime-local in Asia/Tokyo", () => {
    const instant = Date.parse("2026-11-25T12:00:00Z");
    expect(desiredStartTimeSchema.parse(instant / 1000).getTime()).toBe(instant);
    expect(desiredStartTimeSchema.parse(instant).getTime()).toBe(instant);
    expect(desiredStartTimeSchema.parse("2026-11-25T21:00").getTime()).toBe(instant);
    expect(desiredStartTimeSchema.parse("2026-11-25T12:00:00Z").getTime()).toBe(instant);
    expect(purchaseSchema.safeParse({ units: 1, desiredStartTime: "いつか" }).success).toBe(false);
    expect(purchaseSchema.safeParse({ units: 1, desiredStartTime: "" }).success).toBe(false);
  });
});
