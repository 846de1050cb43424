import { checkReadiness } from '@/server/wiring/readiness';

export const dynamic = 'force-dynamic';

/**
 * Readiness: 503 `{ status: "unavailable" }` when the database does not answer; otherwise 200 with
 * `status` `ok` or `degraded` (delivery stalled or failed, or a privacy request overdue or due
 * soon, with `reasons`), the delivery summary (`pending`, `oldestPendingSeconds`, `failed`,
 * `quarantined`) and `privacy` (`open`, `dueSoon`, `overdue`, `oldestDueAt`); docs/operations.md.
 */
export async function GET(): Promise<Response> {
  const readiness = await checkReadiness();
  const headers = { 'Cache-Control': 'no-store' };
  if (!readiness.ready) return Response.json({ status: 'unavailable' }, { status: 503, headers });
  const { assessment, delivery, privacy } = readiness;
  return Response.json(
    {
      status: assessment.status,
      ...(assessment.reasons.length > 0 ? { reasons: assessment.reasons } : {}),
      delivery,
      privacy,
    },
    { headers },
  );
}
