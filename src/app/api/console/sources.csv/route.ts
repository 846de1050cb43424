import { redirect } from 'next/navigation';
import { SIGN_IN_PATH } from '@/server/features/console';
import { consoleAuth, currentOperator } from '@/server/features/console/routes';
import { getSourcesEnv, sourcesCsv, sourcesRange, sourcesReport } from '@/server/features/sources';
import { siteOrigins } from '@/server/platform/http/form-post';
import { isSameSite, originFacts } from '@/server/platform/http/same-site';

/** A byte-order mark first, so spreadsheet programs read the CSV as UTF-8. */
const BOM = '\uFEFF';

/**
 * `POST /api/console/sources.csv` (the Sources page's "Download as CSV", fields `from` and `to`):
 * the page's tables as CSV, UTF-8 with a BOM, for any signed-in operator. Aggregates only, so no
 * audit row. A post from another site is refused (403); without a session: to the sign-in page.
 * Under /api because a POST under /admin must be a server action (the request guard), and an
 * action cannot answer a download to a browser without JavaScript.
 */
export async function POST(request: Request): Promise<Response> {
  const env = getSourcesEnv();
  if (!isSameSite(originFacts(request.headers, env.TRUST_PROXY), siteOrigins(env)))
    return new Response(null, { status: 403 });
  const operator = await currentOperator();
  if (!operator) redirect(SIGN_IN_PATH);
  const form = await request.formData();
  const range = sourcesRange({ from: form.get('from'), to: form.get('to') }, env.SITE_TIME_ZONE);
  const { db } = await consoleAuth();
  const csv = sourcesCsv(await sourcesReport(db, range, { timeZone: env.SITE_TIME_ZONE }));
  return new Response(BOM + csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="sources-${range.from}-${range.to}.csv"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
