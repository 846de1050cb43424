import { hasBearerToken } from '@/lib/security/bearer-token';
import { getEnv } from '@/server/platform/env';
import { checkReadiness, databaseAnswers, healthDetails } from '@/server/wiring/readiness';

export const dynamic = 'force-dynamic';

/**
 * Readiness: 503 `{ status: "unavailable" }` when the database does not answer, else 200
 * `{ status: "ok" }`; nothing more for the public (the edge and orchestrators read the status
 * code), and nothing more asked of the database than `select 1`. With `Authorization: Bearer
 * $METRICS_TOKEN` (compared as `/api/metrics` does, in constant time) the full assessment runs
 * and the 200 carries its details: `status` `ok` or `degraded` with `reasons`, the delivery
 * summary (`pending`, `oldestPendingSeconds`, `failed`, `quarantined`) and `privacy` (`open`,
 * `dueSoon`, `overdue`, `oldestDueAt`); docs/operations.md. `leads health` prints the same.
 */
export async function GET(request: Request): Promise<Response> {
  const headers = { 'Cache-Control': 'no-store' };
  const unavailable = () => Response.json({ status: 'unavailable' }, { status: 503, headers });
  const token = getEnv().METRICS_TOKEN;
  if (token && hasBearerToken(request.headers.get('authorization'), token)) {
    const readiness = await checkReadiness();
    return readiness.ready ? Response.json(healthDetails(readiness), { headers }) : unavailable();
  }
  return (await databaseAnswers()) ? Response.json({ status: 'ok' }, { headers }) : unavailable();
}
