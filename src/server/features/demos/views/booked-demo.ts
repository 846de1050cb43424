import 'server-only';
import { formatDay, formatTime } from '@/lib/demo/display';
import { sameHost } from '../bookings';
import type { BookedDemo, DemoBooking, DemoHost } from '../types';

/** What showing a booking reads of the environment: the hosts and the provider's zone. */
export type DemoDisplayEnv = { DEMO_HOSTS: readonly DemoHost[]; DEMO_TIMEZONE: string };

/** A booking as the pages show it: its time in `DEMO_TIMEZONE` and its host from `DEMO_HOSTS`. */
export function bookedDemoOf(booking: DemoBooking, env: DemoDisplayEnv): BookedDemo {
  const host = env.DEMO_HOSTS.find((candidate) => sameHost(candidate.email, booking.hostEmail));
  const at = booking.startsAt.getTime();
  return {
    start: booking.startsAt.toISOString(),
    day: formatDay(at, env.DEMO_TIMEZONE),
    time: formatTime(at, env.DEMO_TIMEZONE),
    hostName: host?.name ?? booking.hostEmail,
    meetingUrl: host?.meetingUrl ?? '',
  };
}
