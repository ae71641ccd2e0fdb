import * as messages from "./messages/areas";

/**
 * Every user-facing message of the error catalogue (SPEC §8) and the forms, in Japanese, as `messages.area.name`. A
 * namespace, not one object: the bundler keeps only the areas a page's code reads (issue 23).
 */
export { messages };

/** The messages of a 404 (SPEC §8): an unmatched path, and a route whose params are invalid. */
export const notFoundMessage = (path: string) => `Page not found: ${path}`;
export const invalidRouteMessage = (path: string) => `Page Not Found: ${path}`;
