/**
 * Business constants and limits (docs/product.md#constants, docs/product.md#constants), one module per area under constants/; features add theirs there.
 * Code imports them from here. Each area is its own module so the browser bundle carries an area's values only with
 * the pages that read them (vite.config.ts leaves their placement to Rollup), not every constant on every page.
 */
export * from "./constants/accounts";
export * from "./constants/chat";
export * from "./constants/coins";
export * from "./constants/discovery";
export * from "./constants/events";
export * from "./constants/inquiry";
export * from "./constants/notifications";
export * from "./constants/payouts";
export * from "./constants/posts";
export * from "./constants/reviews";
export * from "./constants/site";
export * from "./constants/subscriptions";
export * from "./constants/listings";
export * from "./constants/bookings";
export * from "./constants/sweeper";
export * from "./constants/uploads";
export * from "./constants/mail";
export * from "./constants/push";
export * from "./constants/moderation";
export * from "./constants/installed-app";
export * from "./constants/desk";
