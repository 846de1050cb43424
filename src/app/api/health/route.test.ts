import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';

const TOKEN = 'health-token-0123456789';
process.env.METRICS_TOKEN = TOKEN;

/** The database the route's getDatabase answers with: the suite's own test database. */
let current: TestDatabase | undefined;
vi.mock('@/server/platform/db', async (original) => ({
  ...(await original<typeof import('@/server/platform/db')>()),
  getDatabase: async () => current!,
}));

const { GET } = await import('./route');

/** GET /api/health with `authorization`, if any: the status and the JSON body. */
async function health(authorization?: string) {
  const headers = authorization ? { authorization } : undefined;
  const response = await GET(new Request('http://127.0.0.1/api/health', { headers }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('GET /api/health', backend), () => {
    beforeAll(async () => {
      current = await openTestDatabase(backend.kind);
    });
    afterAll(async () => {
      await current?.dispose();
      current = undefined;
    });

    it('asks the database only `select 1` for an anonymous probe; the full assessment needs the token', async () => {
      const { db } = current!;
      // With the queue's table out of reach, any count of the backlog fails: the anonymous probe
      // still answers ok, since all it runs is `select 1`; the token's assessment cannot.
      await db.execute(sql`alter table jobs rename to jobs_away`);
      try {
        expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });
        expect(await health('Bearer not-the-token-at-all')).toEqual({
          status: 200,
          body: { status: 'ok' },
        });
        expect(await health(`Bearer ${TOKEN}`)).toEqual({
          status: 503,
          body: { status: 'unavailable' },
        });
      } finally {
        await db.execute(sql`alter table jobs_away rename to jobs`);
      }
      const detailed = await health(`Bearer ${TOKEN}`);
      expect(detailed.status).toBe(200);
      expect(detailed.body).toMatchObject({ status: 'ok', delivery: { quarantined: 0 } });
    });
  });
}
