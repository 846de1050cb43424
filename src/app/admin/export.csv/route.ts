import { redirect } from 'next/navigation';
import { describeFilter, parseInboxFilter, type SearchParams } from '@/lib/console/inbox-filter';
import { SIGN_IN_PATH, exportEnquiries } from '@/server/features/console';
import { consoleAuth, currentOperator } from '@/server/features/console/routes';

/** A byte-order mark first, so spreadsheet programs read the CSV as UTF-8. */
const BOM = '\uFEFF';

/**
 * `/admin/export.csv`: the enquiries of the inbox's filter (the same query parameters) as CSV,
 * UTF-8 with a BOM, cells neutralised against formulas (the CLI's export), for any signed-in
 * operator; written to the audit log. Without a session: to the sign-in page, nothing else.
 */
export async function GET(request: Request): Promise<Response> {
  const operator = await currentOperator();
  if (!operator) redirect(SIGN_IN_PATH);
  const params: SearchParams = Object.fromEntries(new URL(request.url).searchParams);
  const { db } = await consoleAuth();
  const csv = await exportEnquiries(db, operator, parseInboxFilter(params), describeFilter(params));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(BOM + csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="enquiries-${day}.csv"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
