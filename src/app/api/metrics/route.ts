import { hasBearerToken } from '@/lib/security/bearer-token';
import { getDatabase } from '@/server/platform/db';
import { readDeliverySummary } from '@/server/wiring/readiness';
import { getEnv } from '@/server/platform/env';
import { readPrivacySummary } from '@/server/features/privacy';
import { renderMetrics } from '@/server/platform/metrics';

export const dynamic = 'force-dynamic';

/**
 * Prometheus metrics, only for `Authorization: Bearer $METRICS_TOKEN`: 404 when
 * METRICS_TOKEN is unset (the route does not exist), 401 for a missing or wrong token. The
 * delivery and privacy-request gauges are left out when the database does not answer.
 */
export async function GET(request: Request): Promise<Response> {
  const token = getEnv().METRICS_TOKEN;
  if (!token) return new Response('Not Found', { status: 404 });
  if (!hasBearerToken(request.headers.get('authorization'), token)) {
    return new Response('Unauthorized', { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
  }
  const read = getDatabase();
  const [summary, privacy] = await Promise.all([
    read.then(({ db }) => readDeliverySummary(db)).catch(() => undefined),
    read
      .then(({ db }) => readPrivacySummary(db, getEnv().PRIVACY_DUE_ALERT_DAYS))
      .catch(() => undefined),
  ]);
  const { body, contentType } = await renderMetrics(summary, privacy);
  return new Response(body, {
    headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' },
  });
}
