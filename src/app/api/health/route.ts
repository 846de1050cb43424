import { hasBearerToken } from '@/lib/security/bearer-token';
import { getEnv } from '@/server/platform/env';
import { checkReadiness, healthDetails } from '@/server/wiring/readiness';

export const dynamic = 'force-dynamic';

/**
 * Readiness: 503 `{ status: "unavailable" }` when the database does not answer, else 200
 * `{ status: "ok" }`; nothing more for the public (the edge and orchestrators read the status
 * code). With `Authorization: Bearer $METRICS_TOKEN` (compared as `/api/metrics` does, in constant
 * time) the 200 carries the details instead: `status` `ok` or `degraded` with `reasons`, the
 * delivery summary (`pending`, `oldestPendingSeconds`, `failed`, `quarantined`) and `privacy`
 * (`open`, `dueSoon`, `overdue`, `oldestDueAt`); docs/operations.md. `leads health` prints the same.
 */
export async function GET(request: Request): Promise<Response> {
  const readiness = await checkReadiness();
  const headers = { 'Cache-Control': 'no-store' };
  if (!readiness.ready) return Response.json({ status: 'unavailable' }, { status: 503, headers });
  const token = getEnv().METRICS_TOKEN;
  if (token && hasBearerToken(request.headers.get('authorization'), token))
    return Response.json(healthDetails(readiness), { headers });
  return Response.json({ status: 'ok' }, { headers });
}
