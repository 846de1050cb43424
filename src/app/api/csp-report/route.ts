import { CSP_REPORT_MAX_BYTES, parseCspReport } from '@/lib/security/csp-report';
import { logCspViolations } from '@/server/platform/security/csp-violations';
import { readTextWithin } from '@/server/platform/http/read-body';

export const dynamic = 'force-dynamic';

/**
 * Receives the browsers' Content-Security-Policy violation reports (`report-uri` and `report-to`
 * in src/lib/security/csp.ts) and logs them as warnings, without query strings or client
 * addresses. 204 when read; 413 above 16 KB; 400 when the body is not a CSP report.
 */
export async function POST(request: Request): Promise<Response> {
  const text = await readTextWithin(request, CSP_REPORT_MAX_BYTES);
  if (text === null) return new Response(null, { status: 413 });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(null, { status: 400 });
  }
  const violations = parseCspReport(body);
  if (!violations) return new Response(null, { status: 400 });
  logCspViolations(violations);
  return new Response(null, { status: 204 });
}
