import 'server-only';
import type { DemoRules } from '@/lib/demo/slots';
import type { Env } from '../env';
import type { BookingSettings } from './booking';

/** One configured demo host (an entry of `DEMO_HOSTS`). */
export type DemoHost = Env['DEMO_HOSTS'][number];

/** Booking is on when `DEMO_HOSTS` names at least one host (issue 16, item 3); else the site is as before. */
export function isBookingOn(env: Env): boolean {
  return env.DEMO_HOSTS.length > 0;
}

/** The availability rules of the `DEMO_*` variables, for computeSlots. */
export function demoRules(env: Env): DemoRules {
  return {
    timeZone: env.DEMO_TIMEZONE,
    hours: env.DEMO_HOURS,
    slotMinutes: env.DEMO_SLOT_MINUTES,
    bufferMinutes: env.DEMO_BUFFER_MINUTES,
    noticeHours: env.DEMO_NOTICE_HOURS,
    maxPerDay: env.DEMO_MAX_PER_DAY,
    closedDates: env.DEMO_CLOSED_DATES,
    bookingDays: env.DEMO_BOOKING_DAYS,
  };
}

/** The booking settings of the environment: rules, hosts, reminder hours and `WEBHOOK_URLS`. */
export function bookingSettings(env: Env): BookingSettings {
  return {
    rules: demoRules(env),
    hosts: env.DEMO_HOSTS,
    reminderHours: env.DEMO_REMINDER_HOURS,
    webhookUrls: env.WEBHOOK_URLS,
  };
}
