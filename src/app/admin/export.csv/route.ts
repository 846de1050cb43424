import { describeFilter, parseInboxFilter, type SearchParams } from '@/lib/console/inbox-filter';
import { SIGN_IN_PATH, exportEnquiries } from '@/server/features/console';
import { consoleAuth, currentOperator, isConsolePost } from '@/server/features/console/routes';
import { readTextWithin } from '@/server/platform/http/read-body';

/** A byte-order mark first, so spreadsheet programs read the CSV as UTF-8. */
const BOM = '\uFEFF';

/**
 * `/admin/export.csv`, by POST only (the inbox's "Export these as CSV" form; a GET answers
 * 405, so no link, image or page of another site can start an export): the enquiries of the
 * posted inbox filter (the inbox's query fields) as CSV, UTF-8 with a BOM, cells neutralised
 * against formulas (the CLI's export), for any signed-in operator posting from this site;
 * written to the audit log with the read. A cross-site post: 403 before anything is read or
 * audited; without a session: to the sign-in page.
 */
export async function POST(request: Request): Promise<Response> {
  const { db, env } = await consoleAuth();
  if (!isConsolePost(request.headers, env.TRUST_PROXY))
    return new Response('Forbidden', { status: 403 });
  const operator = await currentOperator();
  if (!operator) return new Response(null, { status: 303, headers: { location: SIGN_IN_PATH } });
  const body = await readTextWithin(request, 8192);
  if (body === null) return new Response('Payload Too Large', { status: 413 });
  const params: SearchParams = Object.fromEntries(new URLSearchParams(body));
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
