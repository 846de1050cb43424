import type { Metadata } from 'next';
import { consoleAuth, requirePageOperator } from '@/server/features/console/routes';
import {
  getSourcesEnv,
  sourcesRange,
  sourcesReport,
  type FunnelRow,
  type Tally,
} from '@/server/features/sources';
import {
  buttonClass,
  Cell,
  DataTable,
  inputClass,
  labelClass,
  PageHeading,
  secondaryButtonClass,
} from '../../ui';
import { DailyChart } from './chart';

export const metadata: Metadata = { title: 'Sources' };

type SourcesPageProps = {
  searchParams: Promise<{ from?: string | string[]; to?: string | string[] }>;
};

const number = new Intl.NumberFormat('en-IN');

/** A top list: label, views, visitors; `none` when it is empty. */
function TallyTable({ caption, label, rows }: { caption: string; label: string; rows: Tally[] }) {
  if (rows.length === 0) return <p>{`No ${caption.toLowerCase()} in this range.`}</p>;
  return (
    <DataTable caption={caption} head={[label, 'Views', 'Visitors']}>
      {rows.map((row) => (
        <tr key={row.label}>
          <Cell className="wrap-anywhere">{row.label || '(none)'}</Cell>
          <Cell>{number.format(row.views)}</Cell>
          <Cell>{number.format(row.visitors)}</Cell>
        </tr>
      ))}
    </DataTable>
  );
}

function FunnelCells({ row }: { row: FunnelRow }) {
  return (
    <>
      <Cell>{number.format(row.visitors)}</Cell>
      <Cell>{number.format(row.contactViews)}</Cell>
      <Cell>{number.format(row.enquiries)}</Cell>
      <Cell>{number.format(row.demosBooked)}</Cell>
      <Cell>{number.format(row.demosHeld)}</Cell>
    </>
  );
}

/**
 * Where leads come from (admins and sales): the visits, unique visitors, top pages, referring
 * sites and campaigns of a range of days, the funnel from a visit to a demo that took place,
 * overall and per source and campaign, a chart with its table, and the CSV. Aggregates only:
 * nobody's data, so no audit row. Works without JavaScript (a GET form, a POST export).
 */
export default async function SourcesPage({ searchParams }: SourcesPageProps) {
  await requirePageOperator();
  const { db } = await consoleAuth();
  const env = getSourcesEnv();
  const range = sourcesRange(await searchParams, env.SITE_TIME_ZONE);
  const report = await sourcesReport(db, range, { timeZone: env.SITE_TIME_ZONE });
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeading
        title="Sources"
        intro={`Where visits and leads come from, counted without cookies, by day in ${env.SITE_TIME_ZONE}.`}
      />
      <form method="get" className="flex flex-wrap items-end gap-2">
        <label className={labelClass}>
          From
          <input type="date" name="from" defaultValue={range.from} className={inputClass} />
        </label>
        <label className={labelClass}>
          To
          <input type="date" name="to" defaultValue={range.to} className={inputClass} />
        </label>
        <button type="submit" className={buttonClass}>
          Show
        </button>
      </form>

      <section aria-labelledby="visits-heading" className="flex min-w-0 flex-col gap-2">
        <h2 id="visits-heading" className="text-xl font-bold">
          Visits
        </h2>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1">
          <dt className="font-semibold">Page views</dt>
          <dd>{number.format(report.views)}</dd>
          <dt className="font-semibold">Unique visitors</dt>
          <dd>
            {number.format(report.visitors)}{' '}
            <span className="text-sm text-muted">
              (the sum of each day&apos;s unique visitors: someone who came on two days counts
              twice)
            </span>
          </dd>
        </dl>
        <div className="grid min-w-0 gap-2 lg:grid-cols-2">
          <DailyChart days={report.days} />
          <DataTable caption="Views and visitors per day" head={['Day', 'Views', 'Visitors']}>
            {report.days.map((day) => (
              <tr key={day.day}>
                <Cell className="whitespace-nowrap">{day.day}</Cell>
                <Cell>{number.format(day.views)}</Cell>
                <Cell>{number.format(day.visitors)}</Cell>
              </tr>
            ))}
          </DataTable>
        </div>
      </section>

      <section aria-labelledby="funnel-heading" className="flex min-w-0 flex-col gap-2">
        <h2 id="funnel-heading" className="text-xl font-bold">
          From a visit to a demo
        </h2>
        <p className="text-sm text-muted">
          Each step is counted on the day it happens (a demo that took place: booked, not cancelled,
          its start passed), so later purges and erasures leave these figures as they were.
        </p>
        <DataTable
          caption="The funnel per source and campaign"
          head={[
            'Source',
            'Campaign',
            'Visitors',
            'Contact page views',
            'Enquiries',
            'Demos booked',
            'Demos held',
          ]}
        >
          <tr className="font-semibold">
            <Cell>All sources</Cell>
            <Cell />
            <FunnelCells row={report.total} />
          </tr>
          {report.funnel.map((row) => (
            <tr key={`${row.source} ${row.campaign}`}>
              <Cell className="wrap-anywhere">{row.source}</Cell>
              <Cell className="wrap-anywhere">{row.campaign || '—'}</Cell>
              <FunnelCells row={row} />
            </tr>
          ))}
        </DataTable>
      </section>

      <section aria-labelledby="top-heading" className="flex min-w-0 flex-col gap-2">
        <h2 id="top-heading" className="text-xl font-bold">
          Top pages, referring sites and campaigns
        </h2>
        <TallyTable caption="Top pages" label="Page" rows={report.pages} />
        <TallyTable caption="Referring sites" label="Referring site" rows={report.referrers} />
        {report.campaigns.length === 0 ? (
          <p>No campaigns in this range.</p>
        ) : (
          <DataTable
            caption="Campaigns"
            head={['Campaign', 'Source', 'Medium', 'Views', 'Visitors']}
          >
            {report.campaigns.map((row) => (
              <tr key={`${row.label} ${row.source} ${row.medium}`}>
                <Cell className="wrap-anywhere">{row.label || '(none)'}</Cell>
                <Cell className="wrap-anywhere">{row.source || '(none)'}</Cell>
                <Cell className="wrap-anywhere">{row.medium || '(none)'}</Cell>
                <Cell>{number.format(row.views)}</Cell>
                <Cell>{number.format(row.visitors)}</Cell>
              </tr>
            ))}
          </DataTable>
        )}
      </section>

      <form method="post" action="/api/console/sources.csv">
        <input type="hidden" name="from" value={range.from} />
        <input type="hidden" name="to" value={range.to} />
        <button type="submit" className={secondaryButtonClass}>
          Download as CSV
        </button>
      </form>
    </div>
  );
}
