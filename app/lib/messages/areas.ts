// The Japanese messages: one module per area and one export per message, so a page's code carries only the messages it
// reads (issue 23). Read them as `messages.area.name` through app/lib/messages.ts.
export * as error from "./error";
export * as validation from "./validation";
export * as uploads from "./uploads";
export * as api from "./api";
export * as auth from "./auth";
export * as profile from "./profile";
export * as realtime from "./realtime";
export * as chat from "./chat";
export * as notifications from "./notifications";
export * as coins from "./coins";
export * as tickets from "./tickets";
export * as bookings from "./bookings";
export * as reviews from "./reviews";
export * as posts from "./posts";
export * as communities from "./communities";
export * as subscriptions from "./subscriptions";
export * as profiles from "./profiles";
export * as payouts from "./payouts";
export * as inquiry from "./inquiry";
export * as events from "./events";
export * as mail from "./mail";
export * as account from "./account";
export * as hidden from "./hidden";
export * as reports from "./reports";
export * as moderation from "./moderation";
export * as reportLink from "./report-link";
