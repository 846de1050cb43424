import type { Metadata } from 'next';
import Link from 'next/link';
import { deliveryFilters, suppressedText } from '@/content/console';
import { visitorName } from '@/lib/contact-fields';
import {
  describeFilter,
  filterQuery,
  INBOX_PAGE_SIZE,
  parseInboxFilter,
  parsePage,
  type SearchParams,
} from '@/lib/console/inbox-filter';
import { consoleAuth, requirePageOperator } from '@/server/features/console/routes';
import { describeDeliveries } from '@/server/features/contact';
import { readInbox } from '@/server/features/console';
import {
  buttonClass,
  Cell,
  DataTable,
  EnquiryLink,
  inputClass,
  labelClass,
  linkClass,
  Notice,
  PageHeading,
  secondaryButtonClass,
  Time,
} from '../ui';

export const metadata: Metadata = { title: 'Inbox' };

/** A GET form's value for `key` (the first when repeated). */
const value = (params: SearchParams, key: string) => {
  const raw = params[key];
  return (Array.isArray(raw) ? raw[0] : raw) ?? '';
};

/**
 * The inbox: enquiries newest first, filtered by delivery, demo, dates and subject and searched
 * by name, e-mail, organisation or reference (a GET form, so a filtered view is a link), paged;
 * the same filter exports as CSV (a POST). Each page read is written to the audit log.
 */
export default async function InboxPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const operator = await requirePageOperator();
  const params = await searchParams;
  const filter = parseInboxFilter(params);
  const page = parsePage(params);
  const { db } = await consoleAuth();
  const [rows, total] = await readInbox(
    db,
    operator,
    { ...filter, limit: INBOX_PAGE_SIZE, offset: (page - 1) * INBOX_PAGE_SIZE },
    `${describeFilter(params)} page=${page}`,
  );
  const pages = Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE));
  return (
    <div>
      <PageHeading
        title="Inbox"
        intro={`${total} enquir${total === 1 ? 'y' : 'ies'}, newest first.`}
      />
      <Notice notice={params.notice} />
      <form
        method="get"
        action="/admin"
        className="mb-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-4"
        role="search"
      >
        <label className={labelClass}>
          Search
          <input
            name="q"
            type="search"
            defaultValue={value(params, 'q')}
            placeholder="Name, e-mail, organisation or reference"
            className={inputClass}
          />
        </label>
        <label className={labelClass}>
          Delivery
          <select name="delivery" defaultValue={value(params, 'delivery')} className={inputClass}>
            {deliveryFilters.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label className={labelClass}>
          Demo
          <select name="demo" defaultValue={value(params, 'demo')} className={inputClass}>
            <option value="">Any</option>
            <option value="yes">Has a demo</option>
            <option value="no">No demo</option>
          </select>
        </label>
        <label className={labelClass}>
          Subject
          <input name="subject" defaultValue={value(params, 'subject')} className={inputClass} />
        </label>
        <label className={labelClass}>
          Received from
          <input
            name="from"
            type="date"
            defaultValue={value(params, 'from')}
            className={inputClass}
          />
        </label>
        <label className={labelClass}>
          Received until
          <input name="to" type="date" defaultValue={value(params, 'to')} className={inputClass} />
        </label>
        <div className="flex flex-wrap items-end gap-1 lg:col-span-2">
          <button type="submit" className={buttonClass}>
            Filter
          </button>
          <Link href="/admin" prefetch={false} className={secondaryButtonClass}>
            Clear
          </Link>
          <button type="submit" form="export" className={secondaryButtonClass}>
            Export these as CSV
          </button>
        </div>
      </form>
      {/* The export is a POST (no other site can start one); it holds the applied filter. */}
      <form id="export" method="post" action="/admin/export.csv" hidden>
        {[...new URLSearchParams(filterQuery(params))].map(([key, field]) => (
          <input key={key} type="hidden" name={key} value={field} />
        ))}
      </form>
      {rows.length === 0 ? (
        <p>No enquiries match.</p>
      ) : (
        <DataTable
          caption="Enquiries"
          head={['Reference', 'Received', 'Name', 'Organisation', 'E-mail', 'Subject', 'Delivery']}
        >
          {rows.map((row) => (
            <tr key={row.reference}>
              <Cell>
                <EnquiryLink reference={row.reference} />
              </Cell>
              <Cell className="whitespace-nowrap">
                <Time at={row.createdAt} />
              </Cell>
              <Cell>{visitorName(row)}</Cell>
              <Cell>{row.organization}</Cell>
              <Cell className="wrap-anywhere">
                {row.email}
                {row.suppressed && ` (${suppressedText.mark})`}
              </Cell>
              <Cell>{row.subject}</Cell>
              <Cell>{describeDeliveries(row.deliveries)}</Cell>
            </tr>
          ))}
        </DataTable>
      )}
      {pages > 1 && (
        <nav aria-label="Pages" className="mt-2 flex items-center gap-2 text-sm">
          {page > 1 && (
            <Link
              href={`/admin${filterQuery(params, { page: String(page - 1) })}`}
              prefetch={false}
              className={linkClass}
            >
              Newer
            </Link>
          )}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages && (
            <Link
              href={`/admin${filterQuery(params, { page: String(page + 1) })}`}
              prefetch={false}
              className={linkClass}
            >
              Older
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
