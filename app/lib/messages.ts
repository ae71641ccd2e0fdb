import * as messages from "./messages/areas";

/**
 * Every user-facing message of the error catalogue (docs/product.md#errors) and the forms, in Japanese, as `messages.area.name`. A
 * namespace, not one object: the bundler keeps only the messages the app's code reads. Code that runs on
 * every page (the root route and what it imports) reads an area's module directly instead (`~/lib/messages/error`):
 * whatever the shell imports statically travels in the shell, this barrel with every area behind it included.
 */
export { messages };

export { notFoundMessage, invalidRouteMessage } from "./messages/error";
