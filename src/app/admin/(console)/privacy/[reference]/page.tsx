import { Fragment } from 'react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { privacyConsoleText as text } from '@/content/console';
import { listOperators } from '@/server/features/console';
import { consoleAuth, requirePageOperator } from '@/server/features/console/routes';
import { PRIVACY_REPLY_MAX, viewPrivacyRequest } from '@/server/features/privacy';
import { assignPrivacyAction, replyPrivacyAction } from '../../../actions';
import {
  buttonClass,
  inputClass,
  labelClass,
  linkClass,
  Notice,
  PageHeading,
  secondaryButtonClass,
  Time,
} from '../../../ui';
import { DueDate } from '../due-date';

export const metadata: Metadata = { title: 'Privacy request' };

const assign = assignPrivacyAction.bind(null, null);
const reply = replyPrivacyAction.bind(null, null);

type PrivacyRequestPageProps = {
  params: Promise<{ reference: string }>;
  searchParams: Promise<{ notice?: string | string[] }>;
};

/** The time of this request (a page rendered per request). */
async function renderTime(): Promise<Date> {
  return new Date();
}

/**
 * Admins only: one privacy request. While open: its kind, dates, the person's address and words,
 * assignment to an admin, and the reply that is e-mailed to the person and closes it (opening it
 * is written to the audit log). Once closed: the tombstone (kind, dates, outcome, who handled it).
 */
export default async function PrivacyRequestPage({
  params,
  searchParams,
}: PrivacyRequestPageProps) {
  const operator = await requirePageOperator('admin');
  const { reference } = await params;
  const { notice } = await searchParams;
  const { db, env } = await consoleAuth();
  const request = await viewPrivacyRequest(db, operator, decodeURIComponent(reference));
  if (!request) notFound();
  const open = request.status === 'open';
  const admins = open
    ? (await listOperators(db)).filter((candidate) => candidate.role === 'admin')
    : [];
  const now = await renderTime();
  const { detail } = text;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeading title={detail.title(request.reference)} intro={detail.intro} />
      <Notice notice={notice} />

      <section aria-labelledby="request-heading">
        <h2 id="request-heading" className="mb-1 text-xl font-bold">
          {detail.heading}
        </h2>
        <dl className="grid gap-x-3 gap-y-1 sm:grid-cols-[max-content_1fr]">
          <dt className="font-semibold">{detail.kind}</dt>
          <dd>{text.kinds[request.kind]}</dd>
          <dt className="font-semibold">{detail.status}</dt>
          <dd>{detail.statuses[request.status]}</dd>
          <dt className="font-semibold">{detail.requested}</dt>
          <dd>
            <Time at={request.requestedAt} />
          </dd>
          <dt className="font-semibold">{detail.verified}</dt>
          <dd>
            <Time at={request.verifiedAt} />
          </dd>
          <dt className="font-semibold">{detail.due}</dt>
          <dd>
            {open ? (
              <DueDate dueAt={request.dueAt} now={now} alertDays={env.PRIVACY_DUE_ALERT_DAYS} />
            ) : (
              <Time at={request.dueAt} />
            )}
          </dd>
          <dt className="font-semibold">{detail.assignedTo}</dt>
          <dd className="wrap-anywhere">{request.assignedTo ?? text.unassigned}</dd>
          {open ? (
            <>
              <dt className="font-semibold">{detail.email}</dt>
              <dd className="wrap-anywhere">{request.email}</dd>
              <dt className="font-semibold">{detail.details}</dt>
              <dd className="break-words whitespace-pre-wrap">{request.details || '—'}</dd>
              {request.additions.map((addition, index) => (
                <Fragment key={index}>
                  <dt className="font-semibold">
                    {detail.addition} <Time at={addition.at} />
                    <span className="block font-normal">{detail.additionBy[addition.by]}</span>
                  </dt>
                  <dd className="break-words whitespace-pre-wrap">{addition.text}</dd>
                </Fragment>
              ))}
            </>
          ) : (
            <>
              <dt className="font-semibold">{detail.closed}</dt>
              <dd>{request.closedAt && <Time at={request.closedAt} />}</dd>
              <dt className="font-semibold">{detail.outcome}</dt>
              <dd>{request.outcome ?? '—'}</dd>
            </>
          )}
        </dl>
        {!open && <p className="mt-2 text-muted">{detail.tombstone}</p>}
      </section>

      {open && (
        <>
          <section aria-labelledby="assign-heading">
            <h2 id="assign-heading" className="mb-1 text-xl font-bold">
              {text.assign.heading}
            </h2>
            <form action={assign} className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="reference" value={request.reference} />
              <label className={labelClass}>
                {text.assign.label}
                <select
                  name="assignee"
                  defaultValue={request.assignedTo ?? operator.email}
                  className={inputClass}
                >
                  {admins.map((admin) => (
                    <option key={admin.id} value={admin.email}>
                      {admin.email}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" className={secondaryButtonClass}>
                {text.assign.submit}
              </button>
            </form>
          </section>

          <section aria-labelledby="reply-heading">
            <h2 id="reply-heading" className="mb-1 text-xl font-bold">
              {text.reply.heading}
            </h2>
            <form action={reply} className="grid max-w-prose gap-1">
              <input type="hidden" name="reference" value={request.reference} />
              <label className={labelClass} htmlFor="privacy-reply">
                {text.reply.label}
              </label>
              <textarea
                id="privacy-reply"
                name="reply"
                required
                rows={10}
                maxLength={PRIVACY_REPLY_MAX}
                aria-describedby="privacy-reply-hint"
                className={inputClass}
              />
              <p id="privacy-reply-hint" className="text-sm text-muted">
                {text.reply.hint}
              </p>
              <div>
                <button type="submit" className={buttonClass}>
                  {text.reply.submit}
                </button>
              </div>
            </form>
          </section>
        </>
      )}

      <p>
        <Link href="/admin/privacy" prefetch={false} className={linkClass}>
          {detail.back}
        </Link>
      </p>
    </div>
  );
}
