// Addresses the app links to from more than one place; a module of their own so a link needs nothing else.

/** The review dialog's page twin for a booking (the review dialog of docs/product.md#screens, without JavaScript). */
export const reviewPath = (bookingId: string) => `/settings/ticket-management/${bookingId}/review`;

/** A private picture (a chat image), served after the app's check (ADR 069); `small`: its thumbnail variant. */
export const mediaPath = (uploadId: string, size: "full" | "small" = "full") => `/media/${uploadId}${size === "small" ? "/small" : ""}`;
