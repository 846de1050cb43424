import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { spamReasonText, suppressedText } from '@/content/console';
import { contactFields, contactLabels } from '@/lib/contact-fields';
import { VisitSourceRows } from './visit-source-rows';
import { offerDays } from '@/lib/demo/offer';
import { consoleAuth, requirePageOperator } from '@/server/features/console/routes';
import {
  getDemoEnv,
  bookingSettings,
  isChangeable,
  isHeldAt,
  rescheduleSlots,
  bookedDemoOf,
} from '@/server/features/demos';
import { viewEnquiry } from '@/server/features/console';
import type { DemoBooking } from '@/server/features/demos/types';
import { errorFacts, log } from '@/server/platform/log';
import {
  acknowledgeAction,
  cancelDemoAction,
  erasePersonAction,
  releaseAction,
  rescheduleDemoAction,
  retryAction,
} from '../../../actions';
import {
  buttonClass,
  Cell,
  DataTable,
  inputClass,
  labelClass,
  Notice,
  PageHeading,
  secondaryButtonClass,
  Time,
} from '../../../ui';

export const metadata: Metadata = { title: 'Enquiry' };

const retry = retryAction.bind(null, null);
const acknowledge = acknowledgeAction.bind(null, null);
const cancelDemo = cancelDemoAction.bind(null, null);
const reschedule = rescheduleDemoAction.bind(null, null);
const release = releaseAction.bind(null, null);
const erasePerson = erasePersonAction.bind(null, null);

/** The time of this request (a page rendered per request). */
async function renderTime(): Promise<number> {
  return Date.now();
}

type EnquiryPageProps = {
  params: Promise<{ reference: string }>;
  searchParams: Promise<{ notice?: string | string[]; erase?: string | string[] }>;
};

/** What a job delivers, in words. */
function channelOf(kind: string, target: string): string {
  if (kind === 'enquiry.email') return 'E-mail to the sales inbox';
  if (kind.endsWith('.webhook')) return `Webhook ${target}`;
  if (kind === 'demo.mail') return `Demo e-mail (${target})`;
  return kind;
}

/**
 * A demo's state at `now` (ms), in words: booked (upcoming), past (started or over), held (waiting
 * for the visitor's e-mailed confirmation), expired (a hold past its time), requested (a
 * quarantined enquiry's chosen time, held only once released) or cancelled.
 */
function demoState(demo: DemoBooking, now: number): string {
  if (demo.status === 'booked') return isChangeable(demo, now) ? 'booked' : 'past';
  if (demo.status === 'held')
    return isHeldAt(demo, now) ? 'held until the visitor confirms by e-mail' : 'expired';
  if (demo.status === 'requested') return 'requested: held only once the enquiry is released';
  return demo.status;
}

/**
 * One enquiry: every field, when it came, each delivery with its state (retry and acknowledge
 * when one failed), its demo (reschedule, cancel) and, when held as spam, why and release; for
 * admins, "Erase this person's data" (DPDP Act s.12), which asks to confirm first (`?erase=confirm`,
 * a second page without JavaScript). Opening it is written to the audit log.
 */
export default async function EnquiryPage({ params, searchParams }: EnquiryPageProps) {
  const operator = await requirePageOperator();
  const { reference } = await params;
  const { notice, erase } = await searchParams;
  const { db } = await consoleAuth();
  const env = getDemoEnv();
  const lead = await viewEnquiry(db, operator, decodeURIComponent(reference));
  if (!lead) notFound();
  const failed = lead.deliveries.filter((job) => job.status === 'failed');
  const now = await renderTime();
  const live = lead.demos.find((demo) => isChangeable(demo, now));
  const times = live
    ? await rescheduleSlots(db, bookingSettings(env), live).catch((error: unknown) => {
        log.error({ event: 'console.reschedule_slots_failed', error: errorFacts(error) });
        return [];
      })
    : [];
  const days = offerDays(times, env.DEMO_TIMEZONE);

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeading
        title={`Enquiry ${lead.reference}`}
        intro={
          <>
            Received <Time at={lead.createdAt} />
          </>
        }
      />
      <Notice notice={notice} />

      <section aria-labelledby="fields-heading">
        <h2 id="fields-heading" className="mb-1 text-xl font-bold">
          What they sent
        </h2>
        <dl className="grid gap-x-3 gap-y-1 sm:grid-cols-[max-content_1fr]">
          {contactFields.map((field) => (
            <div key={field} className="contents">
              <dt className="font-semibold">{contactLabels[field]}</dt>
              <dd className="break-words whitespace-pre-wrap">{lead[field] || '—'}</dd>
            </div>
          ))}
          <dt className="font-semibold">Came from</dt>
          <dd>{lead.sourcePage ?? '—'}</dd>
          <VisitSourceRows lead={lead} />
          <dt className="font-semibold">Asked for a demo</dt>
          <dd>{lead.demoRequested ? 'Yes' : 'No'}</dd>
          <dt className="font-semibold">{suppressedText.label}</dt>
          <dd>{lead.suppressed ? suppressedText.detail : suppressedText.notSuppressed}</dd>
          <dt className="font-semibold">Verdict</dt>
          <dd>
            {lead.verdict === 'spam' ? (
              `Held as spam: ${spamReasonText(lead.spamReason)}`
            ) : lead.releasedAt ? (
              <>
                Released from spam <Time at={lead.releasedAt} />
              </>
            ) : (
              'Enquiry'
            )}
          </dd>
        </dl>
        {lead.verdict === 'spam' && (
          <form action={release} className="mt-2">
            <input type="hidden" name="reference" value={lead.reference} />
            <input type="hidden" name="from" value="enquiry" />
            <button type="submit" className={buttonClass}>
              Release: deliver it
            </button>
          </form>
        )}
      </section>

      <section aria-labelledby="delivery-heading">
        <h2 id="delivery-heading" className="mb-1 text-xl font-bold">
          Delivery
        </h2>
        {lead.deliveries.length === 0 ? (
          <p>Nothing queued{lead.verdict === 'spam' ? ' (held as spam)' : ''}.</p>
        ) : (
          <DataTable caption="Deliveries" head={['Channel', 'State', 'Attempts', 'Details']}>
            {lead.deliveries.map((job, index) => (
              <tr key={index}>
                <Cell className="min-w-24 wrap-anywhere">{channelOf(job.kind, job.target)}</Cell>
                <Cell>
                  {job.status}
                  {job.acknowledgedAt ? ' (acknowledged)' : ''}
                </Cell>
                <Cell>{job.attempts}</Cell>
                <Cell className="break-words">
                  {job.status === 'sent' && job.finishedAt && (
                    <>
                      Sent <Time at={job.finishedAt} />
                    </>
                  )}
                  {job.status === 'pending' && (
                    <>
                      Next attempt <Time at={job.runAt} />
                    </>
                  )}
                  {job.status === 'failed' && (job.lastError ?? 'unknown error')}
                  {job.status === 'sending' && 'Being sent now'}
                </Cell>
              </tr>
            ))}
          </DataTable>
        )}
        {failed.length > 0 && (
          <div className="mt-2 flex flex-wrap gap-1">
            <form action={retry}>
              <input type="hidden" name="reference" value={lead.reference} />
              <button type="submit" className={buttonClass}>
                Retry failed deliveries
              </button>
            </form>
            {failed.some((job) => !job.acknowledgedAt) && (
              <form action={acknowledge}>
                <input type="hidden" name="reference" value={lead.reference} />
                <button type="submit" className={secondaryButtonClass}>
                  Acknowledge failures
                </button>
              </form>
            )}
          </div>
        )}
      </section>

      <section aria-labelledby="demo-heading">
        <h2 id="demo-heading" className="mb-1 text-xl font-bold">
          Demo
        </h2>
        {lead.demos.length === 0 && <p>No demo booked.</p>}
        <ul className="grid gap-1">
          {lead.demos.map((demo) => {
            const shown = bookedDemoOf(demo, env, 'unproved');
            return (
              <li key={demo.id}>
                {shown.day}, {shown.time} with {shown.hostName} ({demo.hostEmail}):{' '}
                {demoState(demo, now)}
              </li>
            );
          })}
        </ul>
        {live && (
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            <form action={reschedule} className="grid justify-items-start gap-1">
              <input type="hidden" name="reference" value={lead.reference} />
              <label className={labelClass}>
                Move to
                <select name="start" required className={inputClass}>
                  {days.map((day) => (
                    <optgroup key={day.date} label={day.label}>
                      {day.times.map((time) => (
                        <option key={time.start} value={time.start}>
                          {`${day.label}, ${time.label}`}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </select>
              </label>
              <button type="submit" className={buttonClass} disabled={days.length === 0}>
                Reschedule
              </button>
            </form>
            <form action={cancelDemo} className="grid content-end justify-items-start gap-1">
              <input type="hidden" name="reference" value={lead.reference} />
              <p className="text-sm text-muted">
                The visitor and the host are sent a cancellation.
              </p>
              <button type="submit" className={secondaryButtonClass}>
                Cancel the demo
              </button>
            </form>
          </div>
        )}
      </section>

      {operator.role === 'admin' && (
        <section aria-labelledby="erase-heading">
          <h2 id="erase-heading" className="mb-1 text-xl font-bold">
            Erase this person&apos;s data
          </h2>
          {erase === 'confirm' ? (
            <form action={erasePerson} className="grid justify-items-start gap-1">
              <input type="hidden" name="reference" value={lead.reference} />
              <input type="hidden" name="confirm" value="erase" />
              <p role="alert">
                Every enquiry and demo of {lead.email} will be erased, not only this one: a live
                demo is cancelled first, webhook receivers are told (lead.erased) and the address
                gets no more e-mail until it writes again. This cannot be undone.
              </p>
              <div className="flex flex-wrap gap-1">
                <button type="submit" className={buttonClass}>
                  Yes, erase everything of {lead.email}
                </button>
                <a href={`/admin/enquiries/${lead.reference}`} className={secondaryButtonClass}>
                  Keep it
                </a>
              </div>
            </form>
          ) : (
            <>
              <p className="mb-1 text-sm text-muted">
                When the person asks by e-mail or phone (a request through the website is done
                automatically).
              </p>
              <a
                href={`/admin/enquiries/${lead.reference}?erase=confirm`}
                className={secondaryButtonClass}
              >
                Erase this person&apos;s data…
              </a>
            </>
          )}
        </section>
      )}
    </div>
  );
}
