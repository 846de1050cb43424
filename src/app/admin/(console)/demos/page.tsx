import type { Metadata } from 'next';
import { consoleAuth, requirePageOperator } from '@/server/features/console/routes';
import { getDemoEnv } from '@/server/features/demos';
import { listDemos } from '@/server/features/console';
import { auditedRead } from '@/server/platform/audit';
import { cancelDemoAction } from '../../actions';
import {
  buttonClass,
  Cell,
  DataTable,
  EnquiryLink,
  inputClass,
  labelClass,
  Notice,
  PageHeading,
  secondaryButtonClass,
  Time,
} from '../../ui';

export const metadata: Metadata = { title: 'Demos' };

const cancelDemo = cancelDemoAction.bind(null, null);

type DemosPageProps = {
  searchParams: Promise<{
    when?: string | string[];
    host?: string | string[];
    notice?: string | string[];
  }>;
};

/** Demos upcoming (soonest first) or past, optionally of one host, with cancel on live ones. */
export default async function DemosPage({ searchParams }: DemosPageProps) {
  const operator = await requirePageOperator();
  const params = await searchParams;
  const when = params.when === 'past' ? 'past' : 'upcoming';
  const host = typeof params.host === 'string' && params.host ? params.host : undefined;
  const { db } = await consoleAuth();
  const env = getDemoEnv();
  const demos = await auditedRead(
    db,
    operator,
    'demos',
    `${when}${host ? ` host=${host}` : ''}`,
    (tx) => listDemos(tx, { when, host }),
  );
  return (
    <div>
      <PageHeading
        title="Demos"
        intro={when === 'past' ? 'Past demos, latest first.' : 'Upcoming demos, soonest first.'}
      />
      <Notice notice={params.notice} />
      <form method="get" action="/admin/demos" className="mb-3 flex flex-wrap items-end gap-2">
        <label className={labelClass}>
          When
          <select name="when" defaultValue={when} className={inputClass}>
            <option value="upcoming">Upcoming</option>
            <option value="past">Past</option>
          </select>
        </label>
        <label className={labelClass}>
          Host
          <select name="host" defaultValue={host ?? ''} className={inputClass}>
            <option value="">Every host</option>
            {env.DEMO_HOSTS.map((candidate) => (
              <option key={candidate.email} value={candidate.email}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          Show
        </button>
      </form>
      {demos.length === 0 ? (
        <p>No demos.</p>
      ) : (
        <DataTable
          caption="Demos"
          head={['When', 'Host', 'Visitor', 'Organisation', 'Enquiry', 'State']}
        >
          {demos.map((demo) => (
            <tr key={`${demo.reference}-${demo.startsAt.toISOString()}`}>
              <Cell className="whitespace-nowrap">
                <Time at={demo.startsAt} />
              </Cell>
              <Cell className="wrap-anywhere">{demo.hostEmail}</Cell>
              <Cell>{demo.visitor}</Cell>
              <Cell>{demo.organization}</Cell>
              <Cell>
                <EnquiryLink reference={demo.reference} />
              </Cell>
              <Cell>
                {demo.waiting &&
                (demo.status === 'booked' ||
                  demo.status === 'held' ||
                  demo.status === 'requested') ? (
                  `${demo.status}, waiting: enquiry in spam`
                ) : demo.status === 'booked' && when === 'upcoming' ? (
                  <form action={cancelDemo}>
                    <input type="hidden" name="reference" value={demo.reference} />
                    <input type="hidden" name="from" value="demos" />
                    <button
                      type="submit"
                      className={secondaryButtonClass}
                      aria-label={`Cancel the demo of ${demo.reference}`}
                    >
                      Cancel
                    </button>
                  </form>
                ) : (
                  demo.status
                )}
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
