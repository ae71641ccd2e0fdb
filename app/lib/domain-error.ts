/**
 * A rule a model refuses by: the HTTP status it stands for and a code that the message catalogue words
 * (app/lib/error-messages.ts). Each model names its own subclass with the statuses and codes it may throw, so a route
 * tells them apart with `instanceof` and TypeScript checks every code has its words.
 */
export class DomainError<Status extends number = number, Code extends string = string> extends Error {
  constructor(
    readonly status: Status,
    readonly code: Code,
  ) {
    super(code);
  }
}
