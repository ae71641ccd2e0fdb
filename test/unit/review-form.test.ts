import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { canSubmitReview, commentCounter, createReviewFlow, initialReviewState, type ReviewState, type SendResult } from "~/lib/review-form";

const buyerTarget = { bookingId: "b-1", isBuyer: true, counterpart: { displayName: "ミナト", avatar: null } };
const sellerTarget = { ...buyerTarget, isBuyer: false };

function setup({ target = buyerTarget, balance = 1000 as number | null, result = { ok: true } as SendResult } = {}) {
  const states: ReviewState[] = [];
  const sent: unknown[] = [];
  const events: string[] = [];
  const readBalance = vi.fn(async () => {
    events.push("balance");
    return balance;
  });
  const flow = createReviewFlow({
    target,
    send: async (review) => {
      events.push("send");
      sent.push(review);
      return result;
    },
    readBalance,
    onChange: (state) => states.push(state),
    onSubmitted: (bookingId) => events.push(`submitted:${bookingId}`),
    onClose: () => events.push("close"),
  });
  return { flow, states, sent, events, readBalance };
}

describe("the review form's rules (docs/product.md#validation)", () => {
  it("cannot be sent with 0 stars; 1 to 5 can", () => {
    expect(canSubmitReview(initialReviewState)).toBe(false);
    for (const rating of [1, 5]) expect(canSubmitReview({ ...initialReviewState, rating })).toBe(true);
    expect(canSubmitReview({ ...initialReviewState, rating: 3, phase: "submitting" })).toBe(false);
  });

  it("counts the trimmed comment against 500 and refuses more", () => {
    expect(commentCounter("  よろしく  ")).toBe("4/500");
    expect(canSubmitReview({ ...initialReviewState, rating: 4, comment: `  ${"あ".repeat(500)}  ` })).toBe(true);
    expect(canSubmitReview({ ...initialReviewState, rating: 4, comment: "あ".repeat(501) })).toBe(false);
  });

  it("sends the trimmed comment", async () => {
    const { flow, sent } = setup();
    flow.setRating(4);
    flow.setComment("  楽しかった！ ");
    await flow.submit();
    expect(sent).toEqual([{ bookingId: "b-1", rating: 4, comment: "楽しかった！", tipAmount: 0 }]);
  });

  it("a tip is the buyer's only: the seller's tip is never set nor sent", async () => {
    const { flow, sent, readBalance } = setup({ target: sellerTarget });
    flow.setRating(5);
    flow.setTip(500);
    expect(flow.state().tipAmount).toBe(0);
    await flow.submit();
    expect(readBalance).not.toHaveBeenCalled();
    expect(sent).toEqual([{ bookingId: "b-1", rating: 5, comment: "", tipAmount: 0 }]);
  });

  it("with a tip, reads the balance first; below the tip it says コインが足りません and sends nothing", async () => {
    const { flow, sent, events, states } = setup({ balance: 300 });
    flow.setRating(5);
    flow.setTip(500);
    await flow.submit();
    expect(events).toEqual(["balance"]);
    expect(sent).toEqual([]);
    expect(flow.state()).toMatchObject({ phase: "editing", error: "コインが足りません", insufficient: true });
    expect(states.map((state) => state.phase)).toContain("submitting");
  });

  it("with enough coins, reads the balance and then sends the tip", async () => {
    const { flow, sent, events } = setup({ balance: 500 });
    flow.setRating(5);
    flow.setTip(500);
    await flow.submit();
    expect(events.slice(0, 2)).toEqual(["balance", "send"]);
    expect(sent).toEqual([{ bookingId: "b-1", rating: 5, comment: "", tipAmount: 500 }]);
  });

  it("a refusal says レビューの送信に失敗しました and lets the person try again", async () => {
    const { flow } = setup({ result: { ok: false } });
    flow.setRating(2);
    await flow.submit();
    expect(flow.state()).toMatchObject({ phase: "editing", error: "レビューの送信に失敗しました" });
    expect(canSubmitReview(flow.state())).toBe(true);
  });
});

describe("the review dialog's success (docs/product.md#states)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shows success, closes itself after 3 seconds, emits submitted with the booking id, then resets", async () => {
    const { flow, events } = setup();
    flow.setRating(5);
    flow.setComment("最高でした");
    await flow.submit();
    expect(flow.state().phase).toBe("success");
    vi.advanceTimersByTime(2_999);
    expect(events).toEqual(["send"]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(["send", "close", "submitted:b-1"]);
    expect(flow.state()).toEqual(initialReviewState);
  });

  it("closed by hand during success, it still emits submitted once, and not again after 3 seconds", async () => {
    const { flow, events } = setup();
    flow.setRating(3);
    await flow.submit();
    flow.close();
    vi.advanceTimersByTime(5_000);
    expect(events).toEqual(["send", "submitted:b-1", "close"]);
  });

  it("cannot be sent twice while sending", async () => {
    const { flow, sent } = setup();
    flow.setRating(4);
    await Promise.all([flow.submit(), flow.submit()]);
    expect(sent).toHaveLength(1);
  });
});
