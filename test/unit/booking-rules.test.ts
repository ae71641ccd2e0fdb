import { describe, expect, it } from "vitest";
import { bookingActionsFor, checkBookingAction, type BookingFacts } from "~/lib/booking-rules";
import { NO_SHOW_GRACE_MS, NOT_STARTED_CANCEL_AFTER_MS, START_EARLY_MS } from "~/lib/constants";

const start = Date.parse("2026-11-25T12:00:00Z"); // 21:00 in Tokyo
const minute = 60_000;
const facts = (overrides: Partial<BookingFacts> = {}): BookingFacts => ({
  status: "pending",
  desiredStartAt: start,
  acceptDeadlineAt: start + 24 * 60 * minute,
  endsAt: null,
  buyerCheckedInAt: null,
  sellerCheckedInAt: null,
  ...overrides,
});
const kind = (verdict: ReturnType<typeof checkBookingAction>) => (verdict.kind === "denied" ? `${verdict.status}` : verdict.kind);

describe("who may do what to a booking, and when (docs/product.md#bookings)", () => {
  it("only the seller accepts, a pending booking; accepting again is done already", () => {
    expect(kind(checkBookingAction(facts(), "seller", "accept", start - 60 * minute))).toBe("allowed");
    expect(kind(checkBookingAction(facts(), "buyer", "accept", start - 60 * minute))).toBe("403");
    expect(kind(checkBookingAction(facts({ status: "accepted" }), "seller", "accept", start))).toBe("done");
    expect(kind(checkBookingAction(facts({ status: "cancelled" }), "seller", "accept", start))).toBe("409");
  });

  it("the 48-hour accept deadline holds even before the sweeper has cancelled the booking", () => {
    const deadline = facts().acceptDeadlineAt;
    expect(kind(checkBookingAction(facts(), "seller", "accept", deadline - 1))).toBe("allowed");
    expect(checkBookingAction(facts(), "seller", "accept", deadline)).toMatchObject({ status: 409, reason: "承認期限（2026/11/26 21:00）を過ぎています" });
  });

  it("either side cancels a pending booking at any time and an accepted one before the desired start", () => {
    for (const role of ["buyer", "seller"] as const) {
      expect(checkBookingAction(facts(), role, "cancel", start + 600 * minute)).toEqual({ kind: "allowed", cancelReason: role });
      expect(checkBookingAction(facts({ status: "accepted" }), role, "cancel", start - minute)).toEqual({ kind: "allowed", cancelReason: role });
    }
    expect(kind(checkBookingAction(facts({ status: "cancelled" }), "buyer", "cancel", start))).toBe("done");
    expect(kind(checkBookingAction(facts({ status: "in_progress", endsAt: start + 60 * minute }), "buyer", "cancel", start))).toBe("409");
  });

  it("after the desired start, only the buyer of a seller who did not check in cancels, once the 15-minute grace has passed", () => {
    const accepted = facts({ status: "accepted" });
    const graceOver = start + NO_SHOW_GRACE_MS;
    expect(kind(checkBookingAction(accepted, "seller", "cancel", start))).toBe("409");
    const early = checkBookingAction(accepted, "buyer", "cancel", graceOver - 1);
    expect(early).toMatchObject({ kind: "denied", status: 409, reason: "販売者が参加しない場合、2026/11/25 21:15からキャンセルできます" });
    expect(checkBookingAction(accepted, "buyer", "cancel", graceOver)).toEqual({ kind: "allowed", cancelReason: "no_show" });
    expect(kind(checkBookingAction({ ...accepted, sellerCheckedInAt: start }, "buyer", "cancel", graceOver))).toBe("409");
  });

  it("the seller starts an accepted booking from 15 minutes before the desired start, saying from when", () => {
    const accepted = facts({ status: "accepted" });
    expect(checkBookingAction(accepted, "seller", "start", start - START_EARLY_MS - 1)).toMatchObject({ status: 409, reason: "2026/11/25 20:45から開始できます" });
    expect(kind(checkBookingAction(accepted, "seller", "start", start - START_EARLY_MS))).toBe("allowed");
    // A day after the desired start the session is over before it began: the sweeper cancels it, the seller cannot start it.
    expect(kind(checkBookingAction(accepted, "seller", "start", start + NOT_STARTED_CANCEL_AFTER_MS - 1))).toBe("allowed");
    expect(kind(checkBookingAction(accepted, "seller", "start", start + NOT_STARTED_CANCEL_AFTER_MS))).toBe("409");
    expect(kind(checkBookingAction(accepted, "buyer", "start", start))).toBe("403");
    expect(kind(checkBookingAction(facts(), "seller", "start", start))).toBe("409");
    expect(kind(checkBookingAction(facts({ status: "in_progress", endsAt: start + 60 * minute }), "seller", "start", start))).toBe("done");
  });

  it("both sides check in once, from 15 minutes before the start, while accepted or in progress", () => {
    const accepted = facts({ status: "accepted" });
    expect(kind(checkBookingAction(accepted, "buyer", "check-in", start - START_EARLY_MS - 1))).toBe("409");
    expect(kind(checkBookingAction(accepted, "buyer", "check-in", start))).toBe("allowed");
    expect(kind(checkBookingAction({ ...accepted, buyerCheckedInAt: start }, "buyer", "check-in", start))).toBe("done");
    expect(kind(checkBookingAction({ ...accepted, buyerCheckedInAt: start }, "seller", "check-in", start))).toBe("allowed");
    expect(kind(checkBookingAction(facts(), "seller", "check-in", start))).toBe("409");
  });

  it("only the buyer extends, only in progress", () => {
    const playing = facts({ status: "in_progress", endsAt: start + 60 * minute });
    expect(kind(checkBookingAction(playing, "buyer", "extend", start))).toBe("allowed");
    expect(kind(checkBookingAction(playing, "seller", "extend", start))).toBe("403");
    expect(kind(checkBookingAction(facts({ status: "accepted" }), "buyer", "extend", start))).toBe("409");
  });

  it("the buyer completes any time in progress, the seller only once the session has ended", () => {
    const playing = facts({ status: "in_progress", endsAt: start + 60 * minute });
    expect(kind(checkBookingAction(playing, "buyer", "complete", start + minute))).toBe("allowed");
    expect(checkBookingAction(playing, "seller", "complete", start + 59 * minute)).toMatchObject({ status: 409, reason: "終了時刻（2026/11/25 22:00）を過ぎると完了できます" });
    expect(kind(checkBookingAction(playing, "seller", "complete", start + 60 * minute))).toBe("allowed");
    expect(kind(checkBookingAction(facts({ status: "completed" }), "seller", "complete", start))).toBe("done");
    expect(kind(checkBookingAction(facts({ status: "accepted" }), "buyer", "complete", start))).toBe("409");
  });

  it("answers every action for the pages, each with a verdict", () => {
    const actions = bookingActionsFor(facts(), "seller", start - 600 * minute);
    expect(actions.map((item) => item.action)).toEqual(["accept", "cancel", "start", "extend", "check-in", "complete"]);
    expect(actions.filter((item) => item.verdict.kind === "allowed").map((item) => item.label)).toEqual(["承認する", "キャンセルする"]);
  });
});
