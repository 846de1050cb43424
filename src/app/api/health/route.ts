import { checkHealth } from '@/server/health';

export const dynamic = 'force-dynamic';

/** Readiness: 200 `{ status: "ok" }` when the database answers, 503 `{ status: "unavailable" }` otherwise. */
export async function GET(): Promise<Response> {
  const healthy = await checkHealth();
  return Response.json(
    { status: healthy ? 'ok' : 'unavailable' },
    { status: healthy ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}
