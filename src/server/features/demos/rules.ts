import 'server-only';
import { z } from 'zod';
import { isTimeZone } from '@/lib/demo/display';
import { isSecureSiteUrl } from '@/lib/seo/site-url';
import { parseWeeklyHours, type WeeklyHours } from '@/lib/demo/hours';
import type { DemoRules } from '@/lib/demo/slots';
import {
  commaList,
  flag,
  jsonList,
  nonNegativeInt,
  positiveInt,
  positiveNumber,
  textOr,
} from '../../platform/env-values';
import { mailBudgetLimits, type MailBudgetEnv } from '../../platform/people/mail-budget';
import type { BookingSettings, DemoHost } from './types';

/**
 * The `DEMO_*` variables in one place: how each is read, checked and defaulted (env.ts makes them
 * demo booking's env slice, which the wiring composes into the site's environment) and how they
 * become the settings booking reads. The
 * pure arithmetic that applies the rules (slots, hours) lives in src/lib/demo, where the browser's
 * time picker can use it too.
 */

/** One host of `DEMO_HOSTS`; a host without `busyFeeds` is busy only with its bookings. */
const demoHost = z.object({
  name: z.string().trim().min(1),
  email: z.email(),
  meetingUrl: z.url({ protocol: /^https$/ }),
  // A feed's address is a secret (whoever has it reads the calendar): never sent in clear text.
  busyFeeds: z
    .array(
      z.url({
        protocol: /^https$/,
        error: 'each busy feed must be an https: address (a feed URL is a secret)',
      }),
    )
    .default([]),
}) satisfies z.ZodType<DemoHost>;

/** `DEMO_HOURS` parsed by parseWeeklyHours; its error message names the faulty part. */
const weeklyHours = z.string().transform((text, context): WeeklyHours => {
  try {
    return parseWeeklyHours(text);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/**
 * The demo booking variables with their defaults (documented in the README and `.env.example`).
 * Booking is on when `DEMO_HOSTS` names at least one host; without it the others are unused.
 */
export const demoEnvSchema = z.object({
  /** The hosts as a JSON list of `{"name","email","meetingUrl","busyFeeds"?}`, each e-mail once. */
  DEMO_HOSTS: jsonList(demoHost).refine(
    (hosts) => new Set(hosts.map((host) => host.email.toLowerCase())).size === hosts.length,
    'each host e-mail must appear once',
  ),
  /** The IANA zone of the hours and closed dates. */
  DEMO_TIMEZONE: textOr(
    'Asia/Kolkata',
    z.string().refine(isTimeZone, 'must be an IANA time zone such as Asia/Kolkata'),
  ),
  /** Weekly hours, e.g. `Mon-Fri 10:00-13:00 14:00-18:00; Sat 10:00-13:00`. */
  DEMO_HOURS: textOr('Mon-Fri 10:00-13:00 14:00-18:00', weeklyHours),
  /** Length of a demo (minutes). */
  DEMO_SLOT_MINUTES: positiveInt(45),
  /** Free minutes a host keeps before and after a demo. */
  DEMO_BUFFER_MINUTES: nonNegativeInt(15),
  /** Least time from now to a demo's start (hours). */
  DEMO_NOTICE_HOURS: nonNegativeInt(12),
  /** Most demos a host gives on one day in `DEMO_TIMEZONE`. */
  DEMO_MAX_PER_DAY: positiveInt(4),
  /**
   * Most upcoming demos booked from one client address (its keyed hash), whatever the enquiries:
   * a person never reaches it, a script filling the calendar does.
   */
  DEMO_MAX_PER_CLIENT: positiveInt(2),
  /**
   * Most upcoming confirmed demos of one inbox (every spelling of it), whatever the enquiries:
   * holds waiting for their confirmation do not count, so a stranger's hold blocks nobody.
   */
  DEMO_MAX_PER_EMAIL: positiveInt(1),
  /**
   * Most unlapsed holds booked from one client group (IPv4 /24, IPv6 /48): a few addresses
   * cannot keep the calendar held without one working e-mail address.
   */
  DEMO_MAX_HOLDS_PER_GROUP: positiveInt(4),
  /** Dates without demos, comma-separated ISO dates (`2026-01-26,2026-08-15`). */
  DEMO_CLOSED_DATES: commaList(z.iso.date()),
  /** Days offered ahead, today included. */
  DEMO_BOOKING_DAYS: positiveInt(14),
  /** Hours before a demo the visitor is reminded. */
  DEMO_REMINDER_HOURS: positiveInt(24),
  /** How long a host's busy feed's last good copy is trusted when the feed cannot be fetched (h). */
  DEMO_FEED_MAX_AGE_HOURS: positiveNumber(6),
  /**
   * On by default: a booking holds its time for 30 minutes (HOLD_MS) until the visitor confirms it
   * from an e-mailed link, proving the address (the invitations follow the confirmation); an
   * explicit `0` or `false` books at once, unproven (docs/demo-booking.md says what that costs).
   */
  DEMO_CONFIRM_EMAIL: flag(true),
});

/** The validated `DEMO_*` variables (demo booking's env slice, env.ts). */
export type DemoEnv = z.infer<typeof demoEnvSchema>;

/**
 * Why the environment is refused when booking is on and `SITE_URL` is unfit (see
 * isBookingSiteUrl): shown when the server starts.
 */
export const BOOKING_SITE_URL_MESSAGE =
  'SITE_URL must be set to the https: address of the site when DEMO_HOSTS is set: the e-mailed ' +
  'manage links point there (http: is accepted only for localhost, 127.0.0.1 and [::1]).';

/**
 * Whether `siteUrl` (`SITE_URL`) may carry the manage links booking e-mails: the rule of every
 * e-mailed link (isSecureSiteUrl: `https:`, or `http:` on localhost, 127.0.0.1 or [::1]). Unset
 * is unfit: the links would point at the default `http://localhost:3000`, which no visitor can open.
 */
export function isBookingSiteUrl(siteUrl: string | undefined): boolean {
  return isSecureSiteUrl(siteUrl);
}

/** Booking is on when `DEMO_HOSTS` names at least one host; else the site is as before. */
export function isBookingOn(env: Pick<DemoEnv, 'DEMO_HOSTS'>): boolean {
  return env.DEMO_HOSTS.length > 0;
}

/** The availability rules of the `DEMO_*` variables, for computeSlots. */
export function demoRules(env: DemoEnv): DemoRules {
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

/**
 * The booking settings of the environment: rules, hosts, reminder hours, caps, `WEBHOOK_URLS`,
 * whether bookings wait for the visitor's e-mailed confirmation, and the budget of e-mails to
 * unproven addresses.
 */
export function bookingSettings(
  env: DemoEnv & {
    WEBHOOK_URLS: readonly string[];
  } & MailBudgetEnv,
): BookingSettings {
  return {
    rules: demoRules(env),
    hosts: env.DEMO_HOSTS,
    reminderHours: env.DEMO_REMINDER_HOURS,
    caps: {
      perClient: env.DEMO_MAX_PER_CLIENT,
      perEmail: env.DEMO_MAX_PER_EMAIL,
      holdsPerGroup: env.DEMO_MAX_HOLDS_PER_GROUP,
    },
    webhookUrls: env.WEBHOOK_URLS,
    confirmEmail: env.DEMO_CONFIRM_EMAIL,
    mailBudget: mailBudgetLimits(env),
  };
}
