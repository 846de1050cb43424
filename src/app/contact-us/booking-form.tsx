import type { BookingOffer } from '@/lib/demo/offer';
import { CtaButton } from '@/components/ui/cta';
import { BookingTimes } from './booking-times';
import { bookDemoTime } from './demo/actions';
import { TimeOption } from './time-option';

/** What follows the time zone above the times. */
const hint = 'Skipping this is fine: your enquiry has already reached us.';

/** The booking action with its bound first argument (see bookDemoTime). */
const bookTime = bookDemoTime.bind(null, null);

/**
 * The demo booking step (issue 16, items 1-2): a plain form, so it works without JavaScript. The
 * free times of each day are radio buttons in a fieldset named by the day, in the provider's zone.
 * Headed "Pick a time for your demo" after "Schedule a Demo", else "Book a call with our team".
 * `notice` is shown above the times (e.g. the time just chosen was taken).
 */
export function BookingForm({ offer, notice }: { offer: BookingOffer; notice?: string }) {
  const heading = offer.demoRequested ? 'Pick a time for your demo' : 'Book a call with our team';
  return (
    <section
      aria-labelledby="booking-heading"
      className="mt-3 rounded border border-slate-200 bg-white p-2 sm:p-3"
    >
      <h3 id="booking-heading" className="text-xl">
        {heading}
      </h3>
      {notice && (
        <p
          role="alert"
          className="mt-1 rounded border border-amber-700 bg-amber-50 px-2 py-1.5 text-sm text-amber-900"
        >
          {notice}
        </p>
      )}
      {offer.days.length === 0 ? (
        <p className="mt-1">
          No times are free at the moment. Our team will suggest times by e-mail.
        </p>
      ) : (
        <form action={bookTime} className="mt-1 grid gap-2">
          <input type="hidden" name="token" value={offer.token} />
          <BookingTimes days={offer.days} timeZone={offer.timeZone} hint={hint}>
            <p className="text-sm text-muted">
              Times are in the {offer.timeZone.replace(/_/g, ' ')} time zone. {hint}
            </p>
            {offer.days.map((day) => (
              <fieldset key={day.date} className="grid gap-1">
                <legend className="font-semibold">{day.label}</legend>
                <div className="flex flex-wrap gap-1">
                  {day.times.map((time) => (
                    <TimeOption key={time.start} {...time} />
                  ))}
                </div>
              </fieldset>
            ))}
          </BookingTimes>
          <div>
            <CtaButton type="submit" size="md">
              Book this time
            </CtaButton>
          </div>
        </form>
      )}
    </section>
  );
}
