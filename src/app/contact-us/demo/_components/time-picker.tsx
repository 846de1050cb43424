'use client';

import { useId, useMemo, useState } from 'react';
import { DayPicker, type ClassNames } from 'react-day-picker';
import { zoneName } from '@/lib/demo/display';
import { visitorDays, type BookingOffer } from '@/lib/demo/offer';
import { localDate } from '@/lib/demo/slots';
import { TimeOption } from './time-option';

/** A previous/next month button: 40 px, the site's border and accent. */
const navButton =
  'inline-flex size-5 items-center justify-center rounded border border-slate-300 text-brand-800 hover:bg-brand-50 aria-disabled:cursor-default aria-disabled:text-slate-400 aria-disabled:hover:bg-transparent';

/**
 * The calendar in the site's Tailwind tokens (DESIGN.md §4; react-day-picker's stylesheet is not
 * loaded). Offered days are tinted buttons, other days plain disabled text; the chosen day is
 * filled with the accent. Cells are 32 px on phones (seven fit in 375 px), 40 px from `sm`.
 */
const classNames: Partial<ClassNames> = {
  root: 'w-fit',
  months: 'relative',
  month: 'grid gap-1',
  month_caption: 'flex h-5 items-center font-semibold',
  nav: 'absolute top-0 right-0 flex gap-0.5',
  button_previous: navButton,
  button_next: navButton,
  chevron: 'size-2.5 fill-current',
  month_grid: 'border-collapse',
  weekday: 'size-4 text-center text-sm font-medium text-muted sm:size-5',
  day: 'p-0 text-center',
  day_button:
    'size-4 rounded bg-brand-50 font-semibold text-brand-900 hover:bg-brand-100 disabled:bg-transparent disabled:font-normal disabled:text-slate-500 aria-disabled:bg-transparent aria-disabled:font-normal aria-disabled:text-slate-500 sm:size-5',
  selected: '[&>button]:bg-brand-700 [&>button]:text-white [&>button]:hover:bg-brand-800',
  today: '[&>button]:underline [&>button]:underline-offset-2',
  hidden: 'invisible',
  footer: 'sr-only',
};

/**
 * The booking step's times with JavaScript: a date picker (react-day-picker:
 * a keyboard grid, arrow keys between days, only the offered days enabled) and the chosen day's
 * times as radio buttons, both in the visitor's zone (`Intl`), each with the provider's time
 * beside it ("10:30 EST (21:00 IST)"). The radios post the offer's own ISO instants as `start`,
 * so the form's server action books them as it books the plain form's; `hint` follows the note on
 * time zones; `initial` (an offered ISO instant) starts chosen, with its day. Loaded by
 * BookingTimes.
 */
export function TimePicker({
  days: offered,
  timeZone,
  hint,
  initial,
}: Pick<BookingOffer, 'days' | 'timeZone'> & { hint: string; initial?: string }) {
  const visitorZone = useMemo(() => Intl.DateTimeFormat().resolvedOptions().timeZone, []);
  const days = useMemo(
    () => visitorDays({ days: offered, timeZone }, visitorZone),
    [offered, timeZone, visitorZone],
  );
  const [date, setDate] = useState(
    () => days.find((d) => d.times.some((time) => time.start === initial))?.date ?? days[0]?.date,
  );
  const [chosen, setChosen] = useState(initial);
  const labelId = useId();
  const day = days.find((candidate) => candidate.date === date) ?? days[0];
  if (!day) return null;

  const first = new Date(days[0]!.times[0]!.start);
  const last = new Date(days.at(-1)!.times[0]!.start);
  const dates = new Set(days.map((candidate) => candidate.date));
  const month = (at: Date) => localDate(at.getTime(), visitorZone).slice(0, 7);
  const yourZone = zoneName(first.getTime(), visitorZone);
  const ourZone = zoneName(first.getTime(), timeZone);
  return (
    <>
      <p className="text-sm text-muted">
        Times are in your time zone, {visitorZone.replace(/_/g, ' ')} ({yourZone})
        {ourZone === yourZone ? '' : `, with ours (${ourZone}) in brackets`}. {hint}
      </p>
      <div className="grid items-start gap-2 md:grid-cols-[auto_minmax(0,1fr)] md:gap-3">
        <div role="group" aria-labelledby={labelId}>
          <p id={labelId} className="mb-1 font-semibold">
            Choose a day
          </p>
          <DayPicker
            mode="single"
            required
            selected={new Date(day.times[0]!.start)}
            onSelect={(picked) => setDate(localDate(picked.getTime(), visitorZone))}
            disabled={(candidate) => !dates.has(localDate(candidate.getTime(), visitorZone))}
            defaultMonth={first}
            startMonth={first}
            endMonth={last}
            hideNavigation={month(first) === month(last)}
            classNames={classNames}
            footer={`${day.times.length} ${day.times.length === 1 ? 'time' : 'times'} on ${day.label}`}
          />
        </div>
        <fieldset className="grid gap-1">
          <legend className="mb-1 font-semibold">Times on {day.label}</legend>
          <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,15rem),1fr))] gap-1">
            {day.times.map((time) => (
              <TimeOption
                key={time.start}
                {...time}
                checked={chosen === time.start}
                onChange={() => setChosen(time.start)}
              />
            ))}
          </div>
        </fieldset>
      </div>
    </>
  );
}
