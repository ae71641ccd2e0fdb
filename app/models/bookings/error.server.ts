import { DomainError } from "~/lib/domain-error";

/** A booking rule was broken; routes answer its status with its Japanese message (bookingErrorMessage). */
export class BookingError extends DomainError<400 | 403 | 404 | 409 | 422, string> {
  constructor(
    status: 400 | 403 | 404 | 409 | 422,
    code: string,
    /** A sentence for the person, when the rule has more to say than its code (which state, from when). */
    readonly reason?: string,
  ) {
    super(status, code);
  }
}
