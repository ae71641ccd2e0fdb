import { NO_SHOW_GRACE_MS, NOT_STARTED_CANCEL_AFTER_MS, START_EARLY_MS } from "./constants";
import { formatDateTime } from "./time";

/**
 * Who may do what to a booking, and when (docs/product.md#bookings). Pure, so that the model that changes a booking and the
 * pages that offer the buttons (and say why a button is missing) follow one rule book, and unit tests read it.
 */

export const BOOKING_ACTIONS = ["accept", "cancel", "start", "extend", "check-in", "complete"] as const;
export type BookingAction = (typeof BOOKING_ACTIONS)[number];
export type BookingRole = "buyer" | "seller";
export type BookingState = "pending" | "accepted" | "in_progress" | "completed" | "cancelled";

/** What the rules need to know about a booking; times in milliseconds. */
export interface BookingFacts {
  status: BookingState;
  desiredStartAt: number;
  /** A pending booking the seller has not accepted by then is cancelled (by the sweeper): no acceptance from then on. */
  acceptDeadlineAt: number;
  endsAt: number | null;
  buyerCheckedInAt: number | null;
  sellerCheckedInAt: number | null;
}

export type ActionVerdict =
  /** Allowed; for a cancellation, how it is recorded. */
  | { kind: "allowed"; cancelReason?: "buyer" | "seller" | "no_show" }
  /** Done already: asking again changes nothing and answers the booking as it is. */
  | { kind: "done" }
  | { kind: "denied"; status: 403 | 409; code: string; reason: string };

const denied = (status: 403 | 409, code: string, reason: string): ActionVerdict => ({ kind: "denied", status, code, reason });
const notYours = (reason: string) => denied(403, "not_allowed", reason);
const wrongState = (reason: string) => denied(409, "invalid_state", reason);

export const BOOKING_STATUS_LABELS: Record<BookingState, string> = {
  pending: "承認待ち",
  accepted: "予約確定",
  in_progress: "プレイ中",
  completed: "完了",
  cancelled: "キャンセル",
};

/** A booking's two people as labelled beside a name (docs/product.md#roles: the counterparty is 購入者 or 販売者). */
export const PARTY_LABELS: Record<BookingRole, string> = { buyer: "購入者", seller: "販売者" };
/** The label of the other person of a booking, seen by someone who is the seller or not. */
export const counterpartLabel = (viewerIsSeller: boolean) => PARTY_LABELS[viewerIsSeller ? "buyer" : "seller"];

export const BOOKING_ACTION_LABELS: Record<BookingAction, string> = {
  accept: "承認する",
  cancel: "キャンセルする",
  start: "開始する",
  extend: "延長する",
  "check-in": "参加しました",
  complete: "完了する",
};

const closedReason = (status: BookingState) =>
  status === "completed" ? "この取引は完了しています" : status === "cancelled" ? "この取引はキャンセルされています" : null;

/** May `role` do `action` to a booking with these facts at `now`? */
export function checkBookingAction(facts: BookingFacts, role: BookingRole, action: BookingAction, now: number): ActionVerdict {
  const { status } = facts;
  const startOpensAt = facts.desiredStartAt - START_EARLY_MS;
  switch (action) {
    case "accept":
      if (role !== "seller") return notYours("承認できるのは販売者だけです");
      if (status === "accepted") return { kind: "done" };
      if (status !== "pending") return wrongState(closedReason(status) ?? "承認待ちの取引ではありません");
      // The deadline holds at once, not only when the sweeper next runs (it may not have yet).
      if (now >= facts.acceptDeadlineAt) return wrongState(`承認期限（${formatDateTime(facts.acceptDeadlineAt)}）を過ぎています`);
      return { kind: "allowed" };

    case "cancel": {
      if (status === "cancelled") return { kind: "done" };
      if (status === "pending") return { kind: "allowed", cancelReason: role };
      if (status !== "accepted") return wrongState(closedReason(status) ?? "開始済みの取引はキャンセルできません");
      if (now < facts.desiredStartAt) return { kind: "allowed", cancelReason: role };
      // After the desired start only the buyer of a seller who did not show up may cancel (a full refund).
      const noShowFrom = facts.desiredStartAt + NO_SHOW_GRACE_MS;
      if (role === "seller") return wrongState("開始希望時刻を過ぎた取引はキャンセルできません。開始してください");
      if (facts.sellerCheckedInAt !== null) return wrongState("販売者が参加済みのため、キャンセルできません");
      if (now < noShowFrom) return wrongState(`販売者が参加しない場合、${formatDateTime(noShowFrom)}からキャンセルできます`);
      return { kind: "allowed", cancelReason: "no_show" };
    }

    case "start":
      if (role !== "seller") return notYours("開始できるのは販売者だけです");
      if (status === "in_progress") return { kind: "done" };
      if (status === "pending") return wrongState("承認してから開始できます");
      if (status !== "accepted") return wrongState(closedReason(status)!);
      if (now < startOpensAt) return wrongState(`${formatDateTime(startOpensAt)}から開始できます`);
      // From then on the booking is the sweeper's to cancel and refund (not_started), whether it has run yet or not.
      if (now >= facts.desiredStartAt + NOT_STARTED_CANCEL_AFTER_MS) return wrongState("開始希望時刻から24時間が過ぎたため、開始できません");
      return { kind: "allowed" };

    case "check-in": {
      if (status === "pending") return wrongState("予約が確定してから参加できます");
      if (status !== "accepted" && status !== "in_progress") return wrongState(closedReason(status)!);
      const checkedIn = role === "buyer" ? facts.buyerCheckedInAt : facts.sellerCheckedInAt;
      if (checkedIn !== null) return { kind: "done" };
      if (now < startOpensAt) return wrongState(`${formatDateTime(startOpensAt)}から参加できます`);
      return { kind: "allowed" };
    }

    case "extend":
      if (role !== "buyer") return notYours("延長できるのは購入者だけです");
      if (status !== "in_progress") return wrongState(closedReason(status) ?? "延長できるのはプレイ中の取引だけです");
      return { kind: "allowed" };

    case "complete":
      if (status === "completed") return { kind: "done" };
      if (status !== "in_progress") return wrongState(closedReason(status) ?? "開始してから完了できます");
      if (role === "seller" && facts.endsAt !== null && now < facts.endsAt) {
        return wrongState(`終了時刻（${formatDateTime(facts.endsAt)}）を過ぎると完了できます`);
      }
      return { kind: "allowed" };
  }
}

/** Every action with its verdict for this role now: what the pages offer, and why the rest is unavailable. */
export function bookingActionsFor(facts: BookingFacts, role: BookingRole, now: number) {
  return BOOKING_ACTIONS.map((action) => ({ action, label: BOOKING_ACTION_LABELS[action], verdict: checkBookingAction(facts, role, action, now) }));
}

