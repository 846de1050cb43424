'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { BookingOffer } from '@/lib/demo/offer';
import { pressFinished, useFirstInteraction } from '../../first-interaction';
import type { TimePicker } from './time-picker';

/** What the picker starts with: the time ticked in the plain form, and whether focus was there. */
type Handover = { Picker: typeof TimePicker; ticked?: string; focused: boolean };

/**
 * The times of the booking step, enhanced progressively: renders `children`
 * (the server-rendered day fieldsets in the provider's zone) on the server, without JavaScript and
 * until the picker has loaded; then the date picker with times in the visitor's zone, `hint` (a
 * sentence such as "Skipping this is fine…") after its note on time zones. The picker's
 * code is its own chunk, fetched only on the visitor's first interaction with the booking form
 * (focus, a pointer or key press, a submit), so no page loads it with its other scripts. If the
 * chunk cannot be fetched, the plain form stays: it books the same times. The plain form gives way
 * once a press under way has ended (its click lands on the plain form); a time ticked there stays
 * chosen in the picker, and focus that was in the plain times moves to the picker's chosen time
 * (else its first).
 */
export function BookingTimes({
  days,
  timeZone,
  hint,
  children,
}: Pick<BookingOffer, 'days' | 'timeZone'> & { hint: string; children: ReactNode }) {
  const plain = useRef<HTMLDivElement>(null);
  const enhanced = useRef<HTMLDivElement>(null);
  const touched = useFirstInteraction(plain);
  const [picker, setPicker] = useState<Handover | null>(null);
  useEffect(() => {
    if (!touched) return;
    let cancelled = false;
    import('./time-picker')
      .then(async ({ TimePicker }) => {
        await pressFinished();
        const root = plain.current;
        if (cancelled || !root) return;
        setPicker({
          Picker: TimePicker,
          ticked: root.querySelector<HTMLInputElement>('input[name="start"]:checked')?.value,
          focused: root.contains(document.activeElement),
        });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [touched]);
  useEffect(() => {
    if (!picker?.focused) return;
    const times = enhanced.current?.querySelectorAll<HTMLInputElement>('input[name="start"]');
    const chosen = [...(times ?? [])].find((time) => time.checked) ?? times?.[0];
    chosen?.focus();
  }, [picker]);
  if (!picker) {
    // `contents`: the wrapper adds no box, so the plain form's layout is unchanged.
    return (
      <div ref={plain} className="contents">
        {children}
      </div>
    );
  }
  const { Picker, ticked } = picker;
  return (
    <div ref={enhanced} className="contents">
      <Picker days={days} timeZone={timeZone} hint={hint} initial={ticked} />
    </div>
  );
}
