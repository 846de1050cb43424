import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { connection } from 'next/server';
import { CircleCheck } from 'lucide-react';
import { CtaButton } from '@/components/ui/cta';
import { ownValue } from '@/lib/own-value';
import { emailHref, phoneHref, site } from '@/content/site';
import type { ManageView } from '@/server/features/demos/types';
import { MANAGE_REFERRER_POLICY, MANAGE_COOKIE, manageView } from '@/server/features/demos';
import { errorFacts, log } from '@/server/platform/log';
import { BookingForm } from '../_components/booking-form';
import { VisitorTime } from '../_components/visitor-time';
import { cancelDemoBooking, rescheduleDemoTime } from './actions';

/**
 * No search engine keeps the page, and other sites learn at most the origin from it
 * (`strict-origin`, also sent as a header by src/proxy.ts; not `no-referrer`, under which browsers
 * send the forms' POSTs with `Origin: null`, which Next.js refuses as a cross-site action).
 */
export const metadata: Metadata = {
  title: 'Manage your demo',
  robots: { index: false, follow: false },
  referrer: MANAGE_REFERRER_POLICY,
};

/** The cancel action with its bound first argument (see cancelDemoBooking). */
const cancelBooking = cancelDemoBooking.bind(null, null);

type ManagePageProps = {
  searchParams: Promise<{ outcome?: string | string[] }>;
};

/** Notices after a post, shown with role="alert": the outcome of the visitor's own action. */
const notices: Record<string, string> = {
  rescheduled: 'Your demo has moved. An updated invitation is on its way to your e-mail address.',
  cancelled: 'Done: we have let our team know, and a cancellation is on its way to your e-mail.',
  gone: 'Sorry, that time was just taken. Your demo keeps its time; please pick another.',
  closed: 'This demo can no longer be changed.',
  invalid: 'Please pick one of the times below.',
  limited:
    'Too many booking attempts from your connection. Please wait a few minutes and try again.',
  unavailable: 'Changes are unavailable for a moment. Please try again.',
};

const link = 'font-semibold text-brand-800 underline underline-offset-2';

async function loadView(token: string | undefined): Promise<ManageView> {
  try {
    return await manageView(token);
  } catch (error) {
    log.error({ event: 'demo.manage_page_failed', error: errorFacts(error) });
    return { kind: 'invalid' };
  }
}

function Contact() {
  return (
    <>
      call{' '}
      <a href={phoneHref} className={link}>
        {site.phone}
      </a>{' '}
      or write to{' '}
      <a href={emailHref} className={link}>
        {site.email}
      </a>
    </>
  );
}

/**
 * The page the visitor's e-mails link to: without an account, the signed manage
 * token (exchanged from the link's query for an http-only cookie by src/proxy.ts before this
 * renders, so the address bar shows no secret) shows the booked demo (in the provider's zone and, with JavaScript, the
 * visitor's) and offers to pick another time or cancel, both plain forms that work without
 * JavaScript; a cancelled or past demo is shown as such, a bad link says how to reach the team.
 * Not indexed; sends no referrer to other sites.
 */
export default async function ManageDemoPage({ searchParams }: ManagePageProps) {
  await connection();
  const { outcome } = await searchParams;
  const view = await loadView((await cookies()).get(MANAGE_COOKIE)?.value);
  const notice = ownValue(notices, outcome);
  const heading =
    view.kind === 'cancelled'
      ? 'Your demo is cancelled'
      : view.kind === 'invalid'
        ? 'Manage your demo'
        : 'Your demo';
  // "Slot gone" and a bad time belong beside the times; the other notices above everything.
  const nearTimes = outcome === 'gone' || outcome === 'invalid';
  const done = outcome === 'rescheduled' || outcome === 'cancelled';
  return (
    <div className="mx-auto max-w-page px-2 py-4 sm:px-3 md:py-6">
      <h1 className="text-4xl sm:text-5xl">{heading}</h1>
      <div className="mt-3 grid max-w-3xl gap-3">
        {notice && !(nearTimes && view.kind === 'live') && (
          <p
            role="alert"
            className={
              done
                ? 'rounded border border-brand-700 bg-brand-50 px-2 py-1.5 text-brand-900'
                : 'rounded border border-amber-700 bg-amber-50 px-2 py-1.5 text-amber-900'
            }
          >
            {notice}
          </p>
        )}
        {view.kind === 'invalid' ? (
          <p>
            This link is not valid. Please open the link in your latest e-mail about the demo, or{' '}
            <Contact />.
          </p>
        ) : (
          <div
            className={
              view.kind === 'live'
                ? 'rounded border border-brand-200 bg-brand-50 p-2 sm:p-3'
                : 'rounded border border-slate-200 bg-white p-2 sm:p-3'
            }
          >
            {view.kind === 'live' && (
              <CircleCheck aria-hidden="true" className="size-4 text-brand-700" />
            )}
            <p className="mt-1 text-lg" data-testid="managed-time">
              {view.kind === 'cancelled' && 'Cancelled: '}
              <strong>
                {view.demo.day}, {view.demo.time}
              </strong>{' '}
              with {view.demo.hostName}.
            </p>
            <VisitorTime start={view.demo.start} />
            <p className="mt-1">
              Enquiry <span className="font-mono">{view.reference}</span>.
              {view.kind === 'live' && view.demo.meetingUrl && (
                <>
                  {' '}
                  You will join at{' '}
                  <a href={view.demo.meetingUrl} className={link}>
                    {view.demo.meetingUrl}
                  </a>
                  .
                </>
              )}
            </p>
          </div>
        )}
        {view.kind === 'cancelled' && (
          <p>
            The time is free again. To book another demo,{' '}
            <a href="/contact-us?subject=demo" className={link}>
              send a new request
            </a>
            , or <Contact />.
          </p>
        )}
        {view.kind === 'past' && (
          <p>
            This demo has started or is over, so it can no longer be changed here. For anything
            else, <Contact />.
          </p>
        )}
        {view.kind === 'live' && (
          <>
            <BookingForm
              offer={view.offer}
              notice={nearTimes ? notice : undefined}
              reschedule={rescheduleDemoTime}
            />
            <section
              aria-labelledby="cancel-heading"
              className="rounded border border-slate-200 bg-white p-2 sm:p-3"
            >
              <h2 id="cancel-heading" className="text-xl">
                Cancel the demo
              </h2>
              <form action={cancelBooking} className="mt-1 grid justify-items-start gap-2">
                <p>
                  If you no longer need it, cancel it: {view.demo.hostName} is told and the time is
                  freed.
                </p>
                <CtaButton type="submit" intent="secondary" size="md">
                  Cancel my demo
                </CtaButton>
              </form>
            </section>
          </>
        )}
      </div>
    </div>
  );
}
