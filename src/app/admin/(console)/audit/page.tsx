import type { Metadata } from 'next';
import Link from 'next/link';
import { auditActionLabels } from '@/content/console';
import { parsePage } from '@/lib/console/inbox-filter';
import { auditActions, listAudit, type AuditAction } from '@/server/platform/audit';
import { consoleAuth, requirePageOperator } from '@/server/features/console/routes';
import {
  buttonClass,
  Cell,
  DataTable,
  inputClass,
  labelClass,
  linkClass,
  PageHeading,
  Time,
} from '../../ui';

export const metadata: Metadata = { title: 'Audit log' };

const PAGE_SIZE = 50;

type AuditPageProps = {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const one = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value) ?? '';

/** A `YYYY-MM-DD` day's UTC midnight plus `days`, or undefined. */
const day = (value: string, days = 0) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(Date.parse(`${value}T00:00:00Z`) + days * 86_400_000)
    : undefined;

/** Admins only: who did what when, newest first, filtered by act, person or subject and dates. */
export default async function AuditPage({ searchParams }: AuditPageProps) {
  await requirePageOperator('admin');
  const params = await searchParams;
  const action = auditActions.find((name) => name === one(params.action)) as
    AuditAction | undefined;
  const query = one(params.q).trim().slice(0, 200) || undefined;
  const page = parsePage(params);
  const { db } = await consoleAuth();
  const { rows, total } = await listAudit(db, {
    action,
    query,
    from: day(one(params.from)),
    to: day(one(params.to), 1),
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const pageLink = (to: number) => {
    const search = new URLSearchParams();
    for (const key of ['action', 'q', 'from', 'to'])
      if (one(params[key])) search.set(key, one(params[key]));
    search.set('page', String(to));
    return `/admin/audit?${search}`;
  };
  return (
    <div>
      <PageHeading
        title="Audit log"
        intro={`${total} entr${total === 1 ? 'y' : 'ies'}, newest first. Entries are never changed.`}
      />
      <form
        method="get"
        action="/admin/audit"
        className="mb-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-5"
      >
        <label className={labelClass}>
          Act
          <select name="action" defaultValue={action ?? ''} className={inputClass}>
            <option value="">Any</option>
            {auditActions.map((name) => (
              <option key={name} value={name}>
                {auditActionLabels[name] ?? name}
              </option>
            ))}
          </select>
        </label>
        <label className={labelClass}>
          Who or what
          <input name="q" type="search" defaultValue={query ?? ''} className={inputClass} />
        </label>
        <label className={labelClass}>
          From
          <input name="from" type="date" defaultValue={one(params.from)} className={inputClass} />
        </label>
        <label className={labelClass}>
          Until
          <input name="to" type="date" defaultValue={one(params.to)} className={inputClass} />
        </label>
        <div className="flex items-end">
          <button type="submit" className={buttonClass}>
            Filter
          </button>
        </div>
      </form>
      {rows.length === 0 ? (
        <p>No entries match.</p>
      ) : (
        <DataTable caption="Audit log" head={['When', 'Who', 'What', 'Subject', 'Details']}>
          {rows.map((row) => (
            <tr key={row.id}>
              <Cell className="whitespace-nowrap">
                <Time at={row.at} />
              </Cell>
              <Cell className="wrap-anywhere">{row.actor}</Cell>
              <Cell>{auditActionLabels[row.action] ?? row.action}</Cell>
              <Cell className="wrap-anywhere">{row.subject ?? ''}</Cell>
              <Cell className="break-words">{row.detail ?? ''}</Cell>
            </tr>
          ))}
        </DataTable>
      )}
      {pages > 1 && (
        <nav aria-label="Pages" className="mt-2 flex items-center gap-2 text-sm">
          {page > 1 && (
            <Link href={pageLink(page - 1)} prefetch={false} className={linkClass}>
              Newer
            </Link>
          )}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages && (
            <Link href={pageLink(page + 1)} prefetch={false} className={linkClass}>
              Older
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
