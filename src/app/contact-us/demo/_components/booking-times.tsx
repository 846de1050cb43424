'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { BookingOffer } from '@/lib/demo/offer';
import type { TimePicker } from './time-picker';

/**
 * The times of the booking step, enhanced progressively: renders `children`
 * (the server-rendered day fieldsets in the provider's zone) on the server, without JavaScript and
 * until the picker has loaded; then the date picker with times in the visitor's zone, `hint` (a
 * sentence such as "Skipping this is fine…") after its note on time zones. The picker's
 * code is its own chunk, fetched by this effect only when the step is on screen, so no other page
 * (nor /contact-us before an enquiry is accepted) loads it. If the chunk cannot be fetched, the
 * plain form stays: it books the same times. A time ticked in the plain form before the picker
 * arrived stays chosen in the picker.
 */
export function BookingTimes({
  days,
  timeZone,
  hint,
  children,
}: Pick<BookingOffer, 'days' | 'timeZone'> & { hint: string; children: ReactNode }) {
  const plain = useRef<HTMLDivElement>(null);
  const [picker, setPicker] = useState<{ Picker: typeof TimePicker; ticked?: string } | null>(null);
  useEffect(() => {
    import('./time-picker').then(
      ({ TimePicker }) =>
        setPicker({
          Picker: TimePicker,
          ticked: plain.current?.querySelector<HTMLInputElement>('input[name="start"]:checked')
            ?.value,
        }),
      () => undefined,
    );
  }, []);
  if (!picker) {
    // `contents`: the wrapper adds no box, so the plain form's layout is unchanged.
    return (
      <div ref={plain} className="contents">
        {children}
      </div>
    );
  }
  const { Picker, ticked } = picker;
  return <Picker days={days} timeZone={timeZone} hint={hint} initial={ticked} />;
}
