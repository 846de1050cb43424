'use client';

import { useActionState } from 'react';
import type { BookingOffer } from '@/lib/demo/offer';
import { CtaButton } from '@/components/ui/cta';
import { catchFailedCall, type FailedCall } from '../../failed-call';
import { bookDemoTime } from '../actions';
import { BookingTimes } from './booking-times';
import { TimeOption } from './time-option';

/** Shown when the post did not reach the action: refused by the server, or no answer. */
const failedMessages: Record<FailedCall, string> = {
  refused: 'This page is out of date and could not book the time. Please reload it and pick again.',
  network:
    'The time could not be booked: the connection failed. Please check it and press Book this time again.',
};

/** A form action as `useActionState` calls it: the previous state (a message or null), the form. */
type TimeAction = (previous: string | null, form: FormData) => Promise<string | null>;

/** `action` with a failed call leaving its message as the state instead of the error page. */
const safely = (action: TimeAction) =>
  catchFailedCall<string | null>(action, (_form, why) => failedMessages[why]);

const bookTime = safely(bookDemoTime);

/**
 * The demo booking step: a plain form, so it works without JavaScript. The free times of each day
 * are radio buttons in a fieldset named by the day, in the provider's zone. Headed "Pick a time for
 * your demo" after "Schedule a Demo", else "Book a call with our team". `notice` is shown above the
 * times (e.g. the time just chosen was taken), and in its place why a post with JavaScript failed;
 * the time `chosen` (an offered ISO instant, e.g. the one a refused post chose) starts ticked.
 * With `reschedule` (the manage page's server action) it moves the booked demo instead: an h2
 * "Pick another time", `offer.token` empty (the action reads the manage token from its cookie);
 * an empty token renders no field.
 */
export function BookingForm({
  offer,
  notice,
  chosen,
  reschedule,
}: {
  offer: BookingOffer;
  notice?: string;
  chosen?: string;
  reschedule?: TimeAction;
}) {
  const [failure, action] = useActionState(reschedule ? safely(reschedule) : bookTime, null);
  const message = failure ?? notice;
  const heading = reschedule
    ? 'Pick another time'
    : offer.demoRequested
      ? 'Pick a time for your demo'
      : 'Book a call with our team';
  const Heading = reschedule ? 'h2' : 'h3';
  const hint = reschedule
    ? 'Your demo keeps its current time until you pick a new one.'
    : 'Skipping this is fine: your enquiry has already reached us.';
  return (
    <section
      aria-labelledby="booking-heading"
      className="mt-3 rounded border border-slate-200 bg-white p-2 sm:p-3"
    >
      <Heading id="booking-heading" className="text-xl">
        {heading}
      </Heading>
      {message && (
        <p
          role="alert"
          className="mt-1 rounded border border-amber-700 bg-amber-50 px-2 py-1.5 text-sm text-amber-900"
        >
          {message}
        </p>
      )}
      {offer.days.length === 0 ? (
        <p className="mt-1">
          No times are free at the moment. Our team will suggest times by e-mail.
        </p>
      ) : (
        <form action={action} className="mt-1 grid gap-2">
          {offer.token && <input type="hidden" name="token" value={offer.token} />}
          <BookingTimes days={offer.days} timeZone={offer.timeZone} hint={hint}>
            <p className="text-sm text-muted">
              Times are in the {offer.timeZone.replace(/_/g, ' ')} time zone. {hint}
            </p>
            {offer.days.map((day) => (
              <fieldset key={day.date} className="grid gap-1">
                <legend className="font-semibold">{day.label}</legend>
                <div className="flex flex-wrap gap-1">
                  {day.times.map((time) => (
                    <TimeOption key={time.start} {...time} defaultChecked={time.start === chosen} />
                  ))}
                </div>
              </fieldset>
            ))}
          </BookingTimes>
          <div>
            <CtaButton type="submit" size="md">
              {reschedule ? 'Move my demo to this time' : 'Book this time'}
            </CtaButton>
          </div>
        </form>
      )}
    </section>
  );
}
