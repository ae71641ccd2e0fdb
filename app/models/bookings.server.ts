// The bookings live in ./bookings/, a module per step of a booking's life (ADR 056). Two callers outside the folder
// still import from here, the host's sweeper schedule (server/app.ts) and the operators' moderation; they are next
// to be pointed at ./bookings/sweeper.server and ./bookings/cancel.server, and then this file goes.
export { bookingReminderJob, bookingSweepJobs } from "./bookings/sweeper.server";
export { cancelOpenBookingsByModeration } from "./bookings/cancel.server";
