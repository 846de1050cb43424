import { parseWeeklyHours } from '@/lib/demo/hours';
import type { BookingSettings } from '@/server/features/demos/types';

/** The two sales people of the booking tests (`DEMO_HOSTS`), without busy feeds. */
export const meera = {
  name: 'Meera Iyer',
  email: 'meera@nirmaya.example',
  meetingUrl: 'https://meet.example/meera',
  busyFeeds: [],
};
export const arjun = {
  name: 'Arjun Sen',
  email: 'arjun@nirmaya.example',
  meetingUrl: 'https://meet.example/arjun',
  busyFeeds: [],
};

/**
 * Booking settings of the integration tests: demos of 45 min every day 10:00-13:00 IST, 15 min
 * buffer, 12 h notice, 4 a day, 3 days ahead, both hosts, reminder 24 h before; `overrides`
 * replaces any part (`rules` merged field by field).
 */
export function testBookingSettings(
  overrides: Partial<Omit<BookingSettings, 'rules'>> & {
    rules?: Partial<BookingSettings['rules']>;
  } = {},
): BookingSettings {
  const { rules, ...rest } = overrides;
  return {
    rules: {
      timeZone: 'Asia/Kolkata',
      hours: parseWeeklyHours('Mon-Sun 10:00-13:00'),
      slotMinutes: 45,
      bufferMinutes: 15,
      noticeHours: 12,
      maxPerDay: 4,
      closedDates: [],
      bookingDays: 3,
      ...rules,
    },
    hosts: [meera, arjun],
    reminderHours: 24,
    ...rest,
  };
}
