// Addresses the app links to from more than one place; a module of their own so a link needs nothing else.

/** The review dialog's page twin for a booking (the review dialog of docs/product.md#screens, without JavaScript). */
export const reviewPath = (bookingId: string) => `/settings/ticket-management/${bookingId}/review`;
