import { CircleCheck } from 'lucide-react';
import type { Ref } from 'react';
import Link from 'next/link';
import { emailHref, phoneHref, site } from '@/content/site';
import type { BookingOffer } from '@/lib/demo/offer';
import { BookingForm } from './demo/_components/booking-form';

/**
 * What the visitor sees once the enquiry is stored: the reference number and what happens next.
 * The heading takes focus (`headingRef`) so screen-reader users land on it. With `booking` (when
 * demo booking is on) the booking step (demo/_components/booking-form.tsx) follows the reference.
 */
export function Confirmation({
  reference,
  headingRef,
  booking,
}: {
  reference: string;
  headingRef?: Ref<HTMLHeadingElement>;
  booking?: BookingOffer;
}) {
  return (
    <div className="rounded border border-brand-200 bg-brand-50 p-2 sm:p-3">
      <CircleCheck aria-hidden="true" className="size-4 text-brand-700" />
      <h2 ref={headingRef} tabIndex={-1} className="mt-1 text-2xl focus:outline-none">
        Thank you, your enquiry has been received
      </h2>
      <p className="mt-1">
        Your reference number is{' '}
        <strong
          data-testid="enquiry-reference"
          className="font-mono text-lg tracking-wide text-brand-800"
        >
          {reference}
        </strong>
        . Please quote it if you contact us about this enquiry.
      </p>
      {booking && <BookingForm offer={booking} />}
      <h3 className="mt-2 text-lg">What happens next</h3>
      <ol className="mt-1 list-decimal space-y-0.5 pl-3">
        <li>
          Our team reads your enquiry and replies by e-mail to the address you gave, if it can
          receive our e-mails: an address that asked us to erase its data or stop writing to it can
          ask to hear from us again on{' '}
          <Link
            href="/privacy-requests"
            prefetch={false}
            className="font-semibold text-brand-800 underline underline-offset-2"
          >
            our privacy requests page
          </Link>
          .
        </li>
        <li>
          If you asked for a demo, we suggest times for a session with the {site.product} team.
        </li>
        <li>
          If it is urgent, call us on{' '}
          <a href={phoneHref} className="font-semibold text-brand-800 underline underline-offset-2">
            {site.phone}
          </a>{' '}
          or write to{' '}
          <a href={emailHref} className="font-semibold text-brand-800 underline underline-offset-2">
            {site.email}
          </a>
          .
        </li>
      </ol>
      <p className="mt-2">
        <a href="/contact-us" className="font-semibold text-brand-800 underline underline-offset-2">
          Send another enquiry
        </a>
      </p>
    </div>
  );
}
