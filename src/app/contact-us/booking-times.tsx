'use client';

import { useEffect, useState, type ReactNode } from 'react';
import type { BookingOffer } from '@/lib/demo/offer';
import type { TimePicker } from './time-picker';

/**
 * The times of the booking step (issue 16, item 2), enhanced progressively: renders `children`
 * (the server-rendered day fieldsets in the provider's zone) on the server, without JavaScript and
 * until the picker has loaded; then the date picker with times in the visitor's zone, `hint` (a
 * sentence such as "Skipping this is fine…") after its note on time zones. The picker's
 * code is its own chunk, fetched by this effect only when the step is on screen, so no other page
 * (nor /contact-us before an enquiry is accepted) loads it. If the chunk cannot be fetched, the
 * plain form stays: it books the same times.
 */
export function BookingTimes({
  days,
  timeZone,
  hint,
  children,
}: Pick<BookingOffer, 'days' | 'timeZone'> & { hint: string; children: ReactNode }) {
  const [Picker, setPicker] = useState<typeof TimePicker | null>(null);
  useEffect(() => {
    import('./time-picker').then(
      (module) => setPicker(() => module.TimePicker),
      () => undefined,
    );
  }, []);
  return Picker ? <Picker days={days} timeZone={timeZone} hint={hint} /> : children;
}
