export const dynamic = 'force-dynamic';

/** Liveness: 200 `{ status: "ok" }` while the process serves requests; no I/O (issue 10, item 7). */
export function GET(): Response {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}
