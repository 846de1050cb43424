import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { connection } from 'next/server';
import { CircleCheck, MailCheck } from 'lucide-react';
import { heldNotice, reRequestNotices } from '@/content/demo-confirm';
import { bookingNotices } from '@/content/demo-booking';
import { emailHref, phoneHref, site } from '@/content/site';
import { BOOKING_COOKIE, demoStep, HOLD_MINUTES } from '@/server/features/demos';
import type { DemoStep } from '@/server/features/demos/types';
import { errorFacts, log } from '@/server/platform/log';
import { BookingForm } from './_components/booking-form';
import { DemoTimeCard } from './_components/demo-time-card';
import { HeldActions } from './_components/held-actions';

export const metadata: Metadata = { title: 'Book a demo', robots: { index: false, follow: false } };

type DemoPageProps = {
  searchParams: Promise<{ outcome?: string | string[]; start?: string | string[] }>;
};

/** The notice for the outcome of the last booking post, if any. */
function noticeFor(outcome: string | string[] | undefined): string | undefined {
  if (typeof outcome !== 'string') return undefined;
  return Object.hasOwn(bookingNotices, outcome) ? bookingNotices[outcome] : undefined;
}

async function loadStep(token: string | undefined): Promise<DemoStep> {
  try {
    return await demoStep(token);
  } catch (error) {
    log.error({ event: 'demo.page_failed', error: errorFacts(error) });
    return { kind: 'none' };
  }
}

/** Heading of the page for what it shows. */
function headingOf(step: DemoStep): string {
  if (step.kind === 'booked') return 'Your demo is booked';
  if (step.kind === 'held') return heldNotice(step.heldUntil, HOLD_MINUTES, step.delayed).heading;
  return 'Book a demo';
}

/**
 * Where the booking form leads: the booked demo with its time in the provider's zone
 * (named, e.g. "11:30 IST") and, with JavaScript, in the visitor's; with `DEMO_CONFIRM_EMAIL`,
 * the held time and how to confirm it from the e-mail; or fresh times when the chosen
 * one was taken or a cap was reached (the notice says which; the time posted as `start` stays
 * chosen); or, without a valid booking token, how to reach the team. Not indexed.
 */
export default async function DemoPage({ searchParams }: DemoPageProps) {
  await connection();
  const { outcome, start } = await searchParams;
  const step = await loadStep((await cookies()).get(BOOKING_COOKIE)?.value);
  return (
    <div className="mx-auto max-w-page px-2 py-4 sm:px-3 md:py-6">
      <h1 className="text-4xl sm:text-5xl">{headingOf(step)}</h1>
      <div className="mt-3 max-w-3xl">
        {step.kind === 'held' && (
          <>
            <DemoTimeCard demo={step.demo} tone="held" icon={MailCheck}>
              {heldNotice(step.heldUntil, HOLD_MINUTES, step.delayed).lines.map((line) => (
                <p key={line} className="mt-1">
                  {line}
                </p>
              ))}
            </DemoTimeCard>
            <HeldActions
              notice={
                typeof outcome === 'string' && Object.hasOwn(reRequestNotices, outcome)
                  ? reRequestNotices[outcome]
                  : undefined
              }
            />
          </>
        )}
        {step.kind === 'booked' && (
          <DemoTimeCard demo={step.demo} tone="booked" icon={CircleCheck}>
            <p className="mt-1">
              If your address can receive our e-mails, we e-mail the invitation with the meeting
              link to it.
            </p>
            <p className="mt-1">
              To move or cancel the demo, open the link in that e-mail (no account needed), or write
              to us.
            </p>
          </DemoTimeCard>
        )}
        {step.kind === 'offer' && (
          <BookingForm
            offer={step.offer}
            notice={noticeFor(outcome)}
            chosen={typeof start === 'string' ? start : undefined}
          />
        )}
        {step.kind === 'none' && (
          <p>
            This booking step is no longer open. Your enquiry has reached us and our team will reply
            by e-mail; for anything urgent call{' '}
            <a
              href={phoneHref}
              className="font-semibold text-brand-800 underline underline-offset-2"
            >
              {site.phone}
            </a>{' '}
            or write to{' '}
            <a
              href={emailHref}
              className="font-semibold text-brand-800 underline underline-offset-2"
            >
              {site.email}
            </a>
            .
          </p>
        )}
      </div>
    </div>
  );
}
