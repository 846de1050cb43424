import type { Metadata } from 'next';
import Link from 'next/link';
import { privacyConsoleText as text } from '@/content/console';
import { consoleAuth, requirePageOperator } from '@/server/features/console/routes';
import { listPrivacyRequests } from '@/server/features/privacy';
import { closeAbusiveAction } from '../../actions';
import {
  buttonClass,
  Cell,
  DataTable,
  inputClass,
  labelClass,
  linkClass,
  Notice,
  PageHeading,
  Time,
} from '../../ui';
import { DueDate } from './due-date';

export const metadata: Metadata = { title: 'Privacy requests' };

const closeAbusive = closeAbusiveAction.bind(null, null);

type PrivacyPageProps = {
  searchParams: Promise<{ status?: string | string[]; notice?: string | string[] }>;
};

/** The time of this request (a page rendered per request). */
async function renderTime(): Promise<Date> {
  return new Date();
}

/**
 * Admins only: open privacy requests, the earliest due first, each with its kind, verification
 * and due dates (overdue and due-soon ones marked) and assignee; or the closed ones (tombstones:
 * kind, dates, outcome). A GET form switches between them, so each view is a link. Open ones can
 * be ticked and closed as abusive in one POST.
 */
export default async function PrivacyPage({ searchParams }: PrivacyPageProps) {
  const operator = await requirePageOperator('admin');
  const params = await searchParams;
  const status = params.status === 'closed' ? 'closed' : 'open';
  const { db, env } = await consoleAuth();
  const rows = await listPrivacyRequests(db, operator, { status });
  const now = await renderTime();
  const alertDays = env.PRIVACY_DUE_ALERT_DAYS;
  const requestLink = (reference: string) => (
    <Link href={`/admin/privacy/${reference}`} prefetch={false} className={linkClass}>
      {reference}
    </Link>
  );
  return (
    <div>
      <PageHeading
        title={text.title}
        intro={status === 'open' ? text.intro(rows.length) : text.closedIntro}
      />
      <Notice notice={params.notice} />
      <form method="get" action="/admin/privacy" className="mb-3 flex flex-wrap items-end gap-2">
        <label className={labelClass}>
          {text.show}
          <select name="status" defaultValue={status} className={inputClass}>
            <option value="open">{text.filters.open}</option>
            <option value="closed">{text.filters.closed}</option>
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          {text.show}
        </button>
      </form>
      {rows.length === 0 ? (
        <p>{status === 'open' ? text.noOpen : text.noClosed}</p>
      ) : status === 'open' ? (
        <form action={closeAbusive} className="flex min-w-0 flex-col gap-2">
          <DataTable caption={text.filters.open} head={text.openHead}>
            {rows.map((row) => (
              <tr key={row.reference}>
                <Cell>
                  <input
                    type="checkbox"
                    name="reference"
                    value={row.reference}
                    aria-label={text.closeAbusive.label(row.reference)}
                    className="size-3 accent-brand-700"
                  />
                </Cell>
                <Cell className="whitespace-nowrap">{requestLink(row.reference)}</Cell>
                <Cell>{text.kinds[row.kind]}</Cell>
                <Cell className="whitespace-nowrap">
                  <Time at={row.verifiedAt} />
                </Cell>
                <Cell>
                  <DueDate dueAt={row.dueAt} now={now} alertDays={alertDays} />
                </Cell>
                <Cell className="wrap-anywhere">{row.assignedTo ?? text.unassigned}</Cell>
              </tr>
            ))}
          </DataTable>
          <p className="text-sm">{text.closeAbusive.hint}</p>
          <div>
            <button type="submit" className={buttonClass}>
              {text.closeAbusive.submit}
            </button>
          </div>
        </form>
      ) : (
        <DataTable caption={text.filters.closed} head={text.closedHead}>
          {rows.map((row) => (
            <tr key={row.reference}>
              <Cell className="whitespace-nowrap">{requestLink(row.reference)}</Cell>
              <Cell>{text.kinds[row.kind]}</Cell>
              <Cell className="whitespace-nowrap">
                <Time at={row.verifiedAt} />
              </Cell>
              <Cell className="whitespace-nowrap">
                <Time at={row.dueAt} />
              </Cell>
              <Cell className="whitespace-nowrap">
                {row.closedAt && <Time at={row.closedAt} />}
              </Cell>
              <Cell>{row.outcome ?? ''}</Cell>
              <Cell className="wrap-anywhere">{row.assignedTo ?? ''}</Cell>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
