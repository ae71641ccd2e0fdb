import { acceptStep } from "./accept.server";
import { cancelStep } from "./cancel.server";
import { completeStep } from "./complete.server";
import { checkInStep, extendStep, startStep } from "./session.server";
import { stepOf, type StepInput, type StepResult } from "./step.server";
import type { Trx } from "./view.server";

/**
 * Changes a locked booking, inside the caller's transaction, by the step its action names; answers the new row and
 * what to announce. The caller has checked who may do it and the state (~/lib/booking-rules).
 */
export async function applyStep(trx: Trx, input: StepInput): StepResult {
  const step = await stepOf(trx, input);
  switch (input.action) {
    case "accept":
      return acceptStep(step);
    case "cancel":
      return cancelStep(step);
    case "start":
      return startStep(step);
    case "check-in":
      return checkInStep(step);
    case "extend":
      return extendStep(step);
    case "complete":
      return completeStep(step);
  }
}
