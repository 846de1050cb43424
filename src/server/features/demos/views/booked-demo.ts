import 'server-only';
import { formatDay, formatTime } from '@/lib/demo/display';
import { sameHost } from '../bookings';
import type { BookedDemo, DemoBooking, DemoHost } from '../types';

/** What showing a booking reads of the environment: the hosts and the provider's zone. */
export type DemoDisplayEnv = { DEMO_HOSTS: readonly DemoHost[]; DEMO_TIMEZONE: string };

/**
 * A booking as the pages show it: its time in `DEMO_TIMEZONE` and its host from `DEMO_HOSTS`,
 * with the host's meeting link only when `proved` (the page was opened from a link e-mailed to
 * the enquiry's address): the link is the host's standing room, and whoever typed an address
 * into the form has not shown it is theirs.
 */
export function bookedDemoOf(
  booking: DemoBooking,
  env: DemoDisplayEnv,
  proved: 'proved' | 'unproved',
): BookedDemo {
  const host = env.DEMO_HOSTS.find((candidate) => sameHost(candidate.email, booking.hostEmail));
  const at = booking.startsAt.getTime();
  return {
    start: booking.startsAt.toISOString(),
    day: formatDay(at, env.DEMO_TIMEZONE),
    time: formatTime(at, env.DEMO_TIMEZONE),
    hostName: host?.name ?? booking.hostEmail,
    ...(proved === 'proved' && host && { meetingUrl: host.meetingUrl }),
  };
}
