import 'server-only';
import type { BookingOffer } from '@/lib/demo/offer';
import type { DemoRules, Interval, Slot } from '@/lib/demo/slots';
import type { demoBookings } from './schema';
import type { leads } from '../contact';
import type { MailBudgetLimits } from '../../platform/people/mail-budget';

/**
 * The types demo booking shares between its parts (and with the pages and the `leads` CLI), in one
 * file that imports no other part of it, so the parts can use each other's types without importing
 * each other back.
 */

/** A stored demo booking (a row of `demo_bookings`). */
export type DemoBooking = typeof demoBookings.$inferSelect;

/** One sales person who gives demos: an entry of `DEMO_HOSTS` (schema in rules.ts). */
export type DemoHost = {
  name: string;
  /** Where invitations go; also the host's key in bookings. */
  email: string;
  /** Where the demo takes place, e.g. a fixed video-call room; put in the invitation. */
  meetingUrl: string;
  /** Secret iCalendar addresses of the host's calendars (busy times). */
  busyFeeds: string[];
};

/** A host's busy times at `now` (ms) as the slot arithmetic reads them, or null when unknown. */
export type BusyFeeds = {
  /**
   * The union of the busy intervals of the feeds `urls` at `now` (ms); `[]` for no feeds; null
   * when one of them has no copy or its copy is older than the allowed age.
   */
  busyOf(urls: readonly string[], now: number): Interval[] | null;
};

/** What feeds.ts hands its parse worker (feed-worker.ts): one feed's text and where to read it. */
export type FeedParseRequest = {
  /** The feed's body, UTF-8 text (at most the fetch's byte cap). */
  ics: string;
  /** The instants (ms) whose busy times are kept. */
  window: Interval;
  /** `DEMO_TIMEZONE`, for all-day events of a calendar that names no zone. */
  timeZone: string;
  /** Most instances in the window before the feed is refused. */
  maxInstances: number;
};

/** What the parse worker answers: the feed's merged busy intervals, or why it has none. */
export type FeedParseResult =
  { ok: true; busy: Interval[] } | { ok: false; reason: 'too_many_instances' | 'invalid_calendar' };

/**
 * What booking needs from the configuration (rules.ts maps the `DEMO_*` variables to it): the
 * availability rules, the hosts and how many hours before a demo the visitor is reminded
 * (`DEMO_REMINDER_HOURS`); the endpoints of `WEBHOOK_URLS` that get the `demo.*` events (none when
 * absent).
 */
export type BookingSettings = {
  rules: DemoRules;
  hosts: readonly DemoHost[];
  reminderHours: number;
  /** Where the hosts' busy times come from; default this process's feed cache (processFeeds). */
  feeds?: BusyFeeds;
  /**
   * Most upcoming demos per client address (`DEMO_MAX_PER_CLIENT`) and per e-mail address
   * (`DEMO_MAX_PER_EMAIL`); without it nothing is capped (the environment always sets it).
   */
  caps?: BookingCaps;
  /** `WEBHOOK_URLS`: each booking change is announced to them as a `demo.*` event. */
  webhookUrls?: readonly string[];
  /**
   * `DEMO_CONFIRM_EMAIL`: a booking holds its time (holds.ts) until the visitor confirms it from
   * an e-mailed link; nothing else is announced before. Off when absent.
   */
  confirmEmail?: boolean;
  /**
   * The budget of e-mails to addresses not proved yet (`UNPROVEN_MAIL_PER_ADDRESS`,
   * `UNPROVEN_MAIL_PER_HOUR`): every request to confirm and "a demo already exists" notice counts.
   * Read from the site's environment when absent.
   */
  mailBudget?: MailBudgetLimits;
  /**
   * The site secret, for the keyed hash of an inbox the budget counts by (addressKeys); read
   * from the database (getSiteSecret) when absent.
   */
  secret?: string;
};

/**
 * Most upcoming demos and holds booked from one client address, most confirmed upcoming demos of
 * one inbox, and most unlapsed holds booked from one client group (IPv4 /24, IPv6 /48; none
 * when absent).
 */
export type BookingCaps = { perClient: number; perEmail: number; holdsPerGroup?: number };

/**
 * What a booking request did: `booked` (now, or `already-booked` earlier: one live demo or hold
 * per enquiry), `held` (with `DEMO_CONFIRM_EMAIL`: kept for the visitor to confirm; `cap: 'email'`
 * when the e-mail address already had its upcoming demos, so its owner is told of them instead of
 * asked to confirm, and the page says the same as for any hold), `slot-gone` with the times free
 * now, `capped` (without confirmation: the e-mail address already has its upcoming demos, the
 * earliest given, or the client address has), or `refused` (no such enquiry).
 */
export type BookingResult =
  | { outcome: 'booked' | 'already-booked'; booking: DemoBooking }
  | { outcome: 'held'; booking: DemoBooking; cap?: 'email' }
  | { outcome: 'slot-gone'; slots: Slot[] }
  | { outcome: 'capped'; cap: 'email'; booking: DemoBooking }
  | { outcome: 'capped'; cap: 'client' }
  | { outcome: 'refused' };

/**
 * What a reschedule or cancellation did: `rescheduled` (with the booking before), `cancelled`,
 * `slot-gone` with the times free now (the booking is unchanged), or `not-live` when the booking is
 * unknown, cancelled or has started (it can no longer be changed).
 */
export type ChangeResult =
  | { outcome: 'rescheduled'; booking: DemoBooking; previous: DemoBooking }
  | { outcome: 'cancelled'; booking: DemoBooking }
  | { outcome: 'slot-gone'; slots: Slot[] }
  | { outcome: 'not-live' };

/**
 * A change of a demo, with the booking as it is after it: `booked`, `held` (waiting for the
 * visitor's confirmation; with `exists`, the address's upcoming demo its owner is told of instead
 * of asked to confirm), `rescheduled` (with the booking as it was before), or `cancelled`
 * (status `cancelled`, its host and time kept).
 */
export type DemoChange =
  | { kind: 'booked'; booking: DemoBooking }
  | {
      kind: 'held';
      booking: DemoBooking;
      exists?: DemoBooking;
      /** The requesting client's group (hashClientGroup), for the mail budget; null: an operator. */
      clientGroup?: string | null;
    }
  | { kind: 'rescheduled'; booking: DemoBooking; previous: DemoBooking }
  | { kind: 'cancelled'; booking: DemoBooking };

/** The webhook events of a demo's life (docs/webhooks.md). */
export type DemoEventType = 'demo.booked' | 'demo.rescheduled' | 'demo.cancelled';

/**
 * A `demo.*` webhook event, version 1: the Standard Webhooks envelope of `enquiry.created`
 * (`type`, `version`, `timestamp` of the change, `data`). Times are ISO 8601 UTC. Validated by the
 * `demo.webhook` job's schema (webhook-events.ts).
 */
export type DemoEvent = {
  type: DemoEventType;
  version: 1;
  timestamp: string;
  data: {
    /** The enquiry's reference (`NH-…`). */
    reference: string;
    bookingId: string;
    start: string;
    end: string;
    host: { name: string; email: string };
    /** `demo.rescheduled` only: the start before the change. */
    previousStart?: string;
    /** The invitation's `SEQUENCE` after the change (0 when booked, + 1 at each change). */
    sequence: number;
  };
};

/** Who an invitation or cancellation goes to: the visitor who booked or the host who gives the demo. */
export type InvitationRecipient = 'visitor' | 'host';

/** Why a demo is withdrawn from a calendar: `cancelled` outright, or `moved` to another host. */
export type CancellationReason = 'cancelled' | 'moved';

/**
 * The demo a cancellation e-mail withdraws, frozen in its job's payload: the host and time as they
 * were announced (ISO instants), the change's sequence, and why.
 */
export type CancelledDemo = {
  hostEmail: string;
  startsAt: string;
  endsAt: string;
  sequence: number;
  reason: CancellationReason;
};

/**
 * The e-mails of a booking: invitations, the visitor's reminder, cancellations, the request
 * to confirm a hold (`confirm`, to the visitor), and the notice that the address already has a
 * demo (`exists`, to the visitor's address instead of the request to confirm).
 */
export type DemoMail =
  InvitationRecipient | 'reminder' | `${InvitationRecipient}-cancel` | 'confirm' | 'exists';

/** The payload of a `demo.mail` job (validated by its schema in mails/mail-jobs.ts). */
export type DemoMailPayload = {
  bookingId: string;
  mail: DemoMail;
  /** The booking's sequence when the job was queued (the change it announces). */
  sequence: number;
  /** Cancellations only: the demo they withdraw. */
  cancelled?: CancelledDemo;
  /** `exists` only: the address's upcoming demo the notice is about. */
  existing?: string;
};

/** Sender, the provider's copy address and the zone times are written in. */
export type InvitationAddresses = {
  /** `LEADS_FROM`. */
  from: string;
  /** `LEADS_TO`: copied on the host's invitation. */
  copyTo: string;
  /** `DEMO_TIMEZONE`: the time is written in the provider's zone, named (`11:30 IST`). */
  timeZone: string;
};

/** What a demo e-mail describes: the booking, its enquiry and host, and the domain of its `UID`. */
export type InvitationFacts = {
  booking: DemoBooking;
  lead: Pick<
    typeof leads.$inferSelect,
    'reference' | 'firstName' | 'lastName' | 'email' | 'organization'
  > & {
    /** Whether the enquiry's address was suppressed when it came (no Reply-To to it). */
    suppressed?: boolean;
  };
  host: Pick<DemoHost, 'name' | 'email' | 'meetingUrl'>;
  /** Domain of the site's sender address, e.g. `nirmaya.example`. */
  domain: string;
  /** The visitor's signed link to reschedule or cancel, in their e-mails only. */
  manageUrl?: string;
};

/**
 * A booked demo as the pages show it: when (ISO and in the provider's zone) and with whom; the
 * host's standing meeting link only on a page reached by a link e-mailed to the address (proved).
 */
export type BookedDemo = {
  start: string;
  day: string;
  time: string;
  hostName: string;
  meetingUrl?: string;
};

/**
 * What the booking page shows for a token: the demo booked, the demo held until `heldUntil` (the
 * time in the provider's zone, e.g. "11:30 IST") for the visitor to confirm, the times to pick from (with the
 * earliest upcoming demo of another enquiry of the same e-mail address, when there is one, for the
 * notice of the e-mail cap), or nothing.
 */
export type DemoStep =
  | { kind: 'booked'; demo: BookedDemo }
  | {
      kind: 'held';
      demo: BookedDemo;
      heldUntil: string;
      /** Its e-mail to confirm waits its turn (mailDelayedFor): the page says so. */
      delayed: boolean;
    }
  | { kind: 'offer'; offer: BookingOffer }
  | { kind: 'none' };

/**
 * What the manage page shows for a token: the live demo with the times it can move to (`offer`,
 * carrying the same token), a cancelled one, one that has started or is over (`past`), or
 * `invalid` (booking off, a bad token, or a booking deleted with its enquiry).
 */
export type ManageView =
  | { kind: 'live'; demo: BookedDemo; reference: string; offer: BookingOffer }
  | { kind: 'cancelled' | 'past'; demo: BookedDemo; reference: string }
  | { kind: 'invalid' };

/**
 * What a booking post did, for the booking page's notice: `capped` when the e-mail address or the
 * client address already has its upcoming demos (one answer for both: see bookOutcomeOf).
 */
export type BookOutcome = 'booked' | 'held' | 'gone' | 'invalid' | 'limited' | 'capped';

/** What a reschedule or cancel post did, for the manage page's notice. */
export type ManageOutcome = 'rescheduled' | 'cancelled' | 'gone' | 'closed' | 'invalid' | 'limited';

/**
 * What confirming a hold did: `confirmed` (held → booked, announced), `already-confirmed`
 * (harmless repeat), `expired` (the hold lapsed and its time is no longer free for it, or it was
 * cancelled), or `unknown` (no such booking).
 */
export type ConfirmResult =
  | { outcome: 'confirmed' | 'already-confirmed'; booking: DemoBooking }
  | { outcome: 'expired' | 'unknown' };

/**
 * What the confirmation page shows for a confirm token at a time: the held demo with whether its
 * hold has lapsed (it is then booked only if still free), the demo already confirmed, one no
 * longer held (cancelled, or its time taken after the hold lapsed), or `invalid` (booking off, a
 * bad or expired token, a booking deleted with its enquiry).
 */
export type ConfirmView =
  | { kind: 'pending'; demo: BookedDemo; heldUntil: string; lapsed: boolean }
  | { kind: 'confirmed' | 'released'; demo: BookedDemo }
  | { kind: 'invalid' };

/** What a confirmation post did, for the page it leads to. */
export type ConfirmOutcome = 'confirmed' | 'expired' | 'invalid' | 'limited';

/** An upcoming demo as `leads demos` lists it: the booking and its visitor. */
export type UpcomingDemo = {
  reference: string;
  booking: DemoBooking;
  visitor: { firstName: string; lastName: string; email: string; organization: string };
};

/** What the operator's cancel did: cancelled (with the booking and the visitor's e-mail) or why not. */
export type OperatorCancel =
  | { outcome: 'cancelled'; booking: DemoBooking; visitorEmail: string }
  | { outcome: 'not-found' }
  | { outcome: 'no-live-demo' };
