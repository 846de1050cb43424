/**
 * The demos feature's door: demo booking (rules and env slice, forms, views, commands, mails,
 * feeds), its table, jobs and personal-data registration. Other code imports only this (the proxy
 * imports `./proxy`).
 */
export { hasDemoBooking, isChangeable, liveBooking } from './bookings';
export { announceReleased } from './commands/release';
export { rescheduleDemo } from './commands/reschedule';
export { demoEnvSlice, getDemoEnv } from './env';
export { startFeedRefresher, stopFeedRefresher } from './feeds';
export {
  bookFromForm,
  cancelFromForm,
  confirmFromForm,
  reRequestFromForm,
  rescheduleFromForm,
} from './forms';
export { HOLD_MINUTES, isHeldAt } from './holds';
export { demoJobs } from './jobs';
export { MANAGE_REFERRER_POLICY } from './manage-link';
export { cancelDemoOf, listUpcomingDemos } from './upcoming';
export { demosPersonalData } from './personal-data';
export { bookingSettings, isBookingOn } from './rules';
export type { DemoEnv } from './rules';
export { demoBookings } from './schema';
export type { DemoBookingStatus } from './schema';
export {
  BOOKING_COOKIE,
  BOOKING_TOKEN_MAX_AGE_MS,
  CONFIRM_PATH,
  MANAGE_COOKIE,
  MANAGE_PATH,
} from './tokens';
export { bookedDemoOf } from './views/booked-demo';
export { bookingOfferFor, demoStep } from './views/booking-step';
export { confirmView } from './views/confirm-page';
export { manageView } from './views/manage-page';
export { rescheduleSlots } from './views/slots';
