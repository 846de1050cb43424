export const dynamic = 'force-dynamic';

/** Liveness: 200 `{ status: "ok" }` while the process serves requests; no I/O. */
export function GET(): Response {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}
