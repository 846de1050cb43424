import type { Metadata } from 'next';
import { spamReasonText } from '@/content/console';
import { consoleAuth, requirePageOperator } from '@/server/features/console/routes';
import { listSpam } from '@/server/features/contact';
import { auditedRead } from '@/server/platform/audit';
import { releaseAction } from '../../actions';
import { buttonClass, Cell, DataTable, EnquiryLink, Notice, PageHeading, Time } from '../../ui';

export const metadata: Metadata = { title: 'Spam' };

const release = releaseAction.bind(null, null);

/**
 * What the bot filter held back, newest first, each with its reason in words and its message
 * behind a disclosure; tick one or several and release them (they are then delivered once).
 */
export default async function SpamPage({
  searchParams,
}: {
  searchParams: Promise<{ notice?: string | string[] }>;
}) {
  const operator = await requirePageOperator();
  const { notice } = await searchParams;
  const { db } = await consoleAuth();
  const rows = await auditedRead(db, operator, 'spam', null, (tx) =>
    listSpam(tx, { withMessage: true, limit: 500 }),
  );
  return (
    <div>
      <PageHeading
        title="Spam"
        intro="Enquiries the bot filter held back. Release a real one to deliver it; unreleased spam is deleted after the retention period."
      />
      <Notice notice={notice} />
      {rows.length === 0 ? (
        <p>Nothing held as spam.</p>
      ) : (
        <form action={release} className="flex min-w-0 flex-col gap-2">
          <DataTable
            caption="Held as spam"
            head={['Release', 'Reference', 'Received', 'Why', 'E-mail', 'Subject and message']}
          >
            {rows.map((row) => (
              <tr key={row.reference}>
                <Cell>
                  <input
                    type="checkbox"
                    name="reference"
                    value={row.reference}
                    aria-label={`Release ${row.reference}`}
                    className="size-3 accent-brand-700"
                  />
                </Cell>
                <Cell>
                  <EnquiryLink reference={row.reference} />
                </Cell>
                <Cell className="whitespace-nowrap">
                  <Time at={row.createdAt} />
                </Cell>
                <Cell>{spamReasonText(row.reason)}</Cell>
                <Cell className="wrap-anywhere">{row.email}</Cell>
                <Cell>
                  <details>
                    <summary className="cursor-pointer">{row.subject}</summary>
                    <p className="mt-1 break-words whitespace-pre-wrap">{row.message}</p>
                  </details>
                </Cell>
              </tr>
            ))}
          </DataTable>
          <div>
            <button type="submit" className={buttonClass}>
              Release the ticked enquiries
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
