import '@test/quiet-logs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends,
  backendTitle,
  openSecondHandle,
  openTestDatabase,
  type TestDatabase,
} from '@test/databases';
import { canonicalPaths } from '@/content/routes';
import { GET, POST } from '@/app/api/v/route';
import type { Database } from '../../platform/db';
import { createSeamHandler } from '@/seam/handler';
import { seamRegistry } from '@/seam/registry';
import { createStaticCache } from '@/seam/static-cache';
import { existingCollector } from './beacon';
import { VisitCollector } from './collect';
import { BEACON_ROUTE, serveBeaconsBeforeNext } from './endpoint';
import { sourcesReport } from './report';

const ZONE = 'Asia/Kolkata';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131 Safari/537.36';
const PATHS = ['/', '/about-us', '/contact-us', '/products/0'];
/** Beacons in a burst, and the clients (distinct addresses) that send them. */
const BURST = 600;
const CLIENTS = 200;

const holder = globalThis as typeof globalThis & {
  __nirmayaDatabase?: Promise<unknown>;
  __nirmayaVisits?: VisitCollector;
};

const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date()).slice(0, 10);

/** The `n`-th beacon of a burst: client `n % CLIENTS` (an X-Forwarded-For address), a known page. */
function burstBeacon(n: number, origin = 'http://nirmaya.test'): Request {
  return new Request(`${origin}${BEACON_ROUTE}`, {
    method: 'POST',
    headers: {
      host: new URL(origin).host,
      origin,
      'content-type': 'text/plain;charset=UTF-8',
      'user-agent': CHROME,
      'x-forwarded-for': `198.18.${(n % CLIENTS) >> 8}.${(n % CLIENTS) & 255}`,
      'x-nirmaya-peer-address': '127.0.0.1',
    },
    body: JSON.stringify({ path: PATHS[n % PATHS.length], utmSource: 'burst' }),
  });
}

async function totals(db: Database['db']): Promise<{ views: number; visitors: number }> {
  const report = await sourcesReport(db, { from: today(), to: today() }, { timeZone: ZONE });
  return { views: report.views, visitors: report.visitors };
}

/** Makes PostgreSQL refuse `url`'s database and drops its connections (an outage), or ends it. */
async function blockDatabase(url: string, blocked: boolean): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(
      `ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS ${blocked ? 'false' : 'true'}`,
    );
    if (blocked)
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
  } finally {
    await admin.end();
  }
}

for (const backend of backends) {
  // Generous timeouts: the bursts share the machine's cores with whatever else runs.
  const title = backendTitle('the beacon under load', backend);
  describe.skipIf(backend.skipReason)(title, { timeout: 120_000 }, () => {
    let database: TestDatabase;

    beforeAll(async () => {
      // The instance sits behind one proxy: X-Forwarded-For names each client.
      process.env.TRUST_PROXY = '1';
      database = await openTestDatabase(backend.kind);
      holder.__nirmayaDatabase = Promise.resolve(database);
      // The route's collector, made here without the timer collector() adds: only the tests flush.
      holder.__nirmayaVisits = new VisitCollector(database.db);
    });
    afterAll(async () => {
      holder.__nirmayaDatabase = undefined;
      holder.__nirmayaVisits = undefined;
      await database?.dispose();
    });

    it(`counts a burst of ${BURST} beacons from ${CLIENTS} clients exactly, flushes running meanwhile`, async () => {
      const before = await totals(database.db);
      const started = performance.now();
      const flushes: Promise<void>[] = [];
      const answers: Promise<Response>[] = [];
      // In rounds of 100 concurrent beacons, each round's flush left running during the next.
      for (let round = 0; round < BURST / 100; round++) {
        const sent = Array.from({ length: 100 }, (_, i) => POST(burstBeacon(round * 100 + i)));
        answers.push(...sent);
        await Promise.all(sent);
        flushes.push(existingCollector()!.flush(today()));
      }
      const statuses = (await Promise.all(answers)).map((answer) => answer.status);
      await Promise.all(flushes);
      await existingCollector()!.flush(today());
      const after = await totals(database.db);
      console.log(
        `${backend.kind}: ${BURST} beacons answered and written in ${Math.round(performance.now() - started)} ms; ` +
          `views +${after.views - before.views}, visitors +${after.visitors - before.visitors}`,
      );
      expect(new Set(statuses)).toEqual(new Set([204]));
      expect(after.views - before.views).toBe(BURST);
      expect(after.visitors - before.visitors).toBe(CLIENTS);
    });

    it('counts a burst over HTTP, served before Next.js, as exactly as through the route', async () => {
      serveBeaconsBeforeNext(new Set(canonicalPaths));
      // The seam as production runs it, with a stand-in for Next.js's handler.
      const server: Server = createServer(
        createSeamHandler(
          (_request, response) => {
            response.statusCode = 418; // What Next.js would have answered: never reached.
            response.end();
          },
          seamRegistry(),
          {
            precompressed: new Map(),
            cache: createStaticCache(new Set()),
            rewritePages: false,
            atLoad: [],
          },
        ),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const before = await totals(database.db);
        const answers = await Promise.all(
          Array.from({ length: BURST }, (_, n) => fetch(burstBeacon(n, origin))),
        );
        const pixel = await fetch(`${origin}${BEACON_ROUTE}`, {
          headers: { 'user-agent': CHROME, referer: `${origin}/about-us` },
        });
        await existingCollector()!.flush(today());
        const after = await totals(database.db);
        expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([204]));
        expect(answers[0]!.headers.get('cache-control')).toBe('no-store');
        expect(answers[0]!.headers.get('x-content-type-options')).toBe('nosniff');
        expect(answers[0]!.headers.get('content-security-policy')).toContain("default-src 'self'");
        expect(answers[0]!.headers.get('set-cookie')).toBeNull();
        expect(pixel.status).toBe(200);
        expect(pixel.headers.get('content-type')).toBe('image/gif');
        // Any other request, the endpoint with a query string included, goes on to Next.js.
        expect((await fetch(`${origin}/about-us`)).status).toBe(418);
        expect((await fetch(`${origin}${BEACON_ROUTE}?x=1`, { method: 'POST' })).status).toBe(418);
        // The host addressed is part of a visitor's hash: over HTTP each client is a new visitor,
        // and so is the image's (the TCP peer: no X-Forwarded-For).
        expect(after.views - before.views).toBe(BURST + 1);
        expect(after.visitors - before.visitors).toBe(CLIENTS + 1);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('counts each visitor once when two instances share the database', async () => {
      const second =
        backend.kind === 'postgres' ? await openSecondHandle(database.url!) : undefined;
      const instances = [
        new VisitCollector(database.db),
        new VisitCollector(second?.db ?? database.db),
      ];
      try {
        const before = await totals(database.db);
        const day = today();
        await Promise.all(
          Array.from({ length: BURST }, (_, n) =>
            instances[n % 2]!.record({
              day,
              path: PATHS[n % PATHS.length]!,
              source: { referrerHost: null, utmSource: 'two', utmMedium: null, utmCampaign: null },
              device: 'desktop',
              // Client n % 151: an odd count, so each client's views alternate between instances.
              visitor: { address: `192.0.2.${n % 151}`, userAgent: CHROME, host: 'nirmaya.test' },
            }),
          ),
        );
        await Promise.all(instances.map((instance) => instance.flush(day)));
        const after = await totals(database.db);
        expect(after.views - before.views).toBe(BURST);
        expect(after.visitors - before.visitors).toBe(151);
      } finally {
        await second?.close();
      }
    });

    it('answers 204 (and the image) during a database outage, never a 5xx, and loses no held view', async () => {
      const outage = await openTestDatabase(backend.kind);
      holder.__nirmayaDatabase = Promise.resolve(outage);
      holder.__nirmayaVisits = new VisitCollector(outage.db);
      try {
        const held = await Promise.all(Array.from({ length: 50 }, (_, n) => POST(burstBeacon(n))));
        const collector = existingCollector()!;
        // The database goes away: PostgreSQL refuses the connections, PGlite is closed.
        if (outage.url) await blockDatabase(outage.url, true);
        else await outage.close();
        const during = await Promise.all(
          Array.from({ length: 50 }, (_, n) => POST(burstBeacon(50 + n))),
        );
        const pixel = await GET(
          new Request(`http://nirmaya.test${BEACON_ROUTE}`, {
            headers: {
              host: 'nirmaya.test',
              'user-agent': CHROME,
              referer: 'http://nirmaya.test/',
              'x-nirmaya-peer-address': '192.0.2.9',
            },
          }),
        );
        await collector.flush(today()); // fails: the views stay held
        // A fresh instance must read the day's salt: it cannot, and still answers 204.
        holder.__nirmayaVisits = new VisitCollector(outage.db);
        const fresh = await POST(burstBeacon(1));
        holder.__nirmayaVisits = collector;
        for (const answer of [...held, ...during, fresh]) expect(answer.status).toBe(204);
        expect(pixel.status).toBe(200);
        if (!outage.url) return; // a closed PGlite does not come back in this process
        await blockDatabase(outage.url, false);
        await collector.flush(today());
        const after = await totals(outage.db);
        console.log(
          `${backend.kind}: after the outage, views ${after.views}, visitors ${after.visitors}`,
        );
        expect(after).toEqual({ views: 101, visitors: 101 });
      } finally {
        holder.__nirmayaDatabase = Promise.resolve(database);
        holder.__nirmayaVisits = new VisitCollector(database.db);
        await outage.dispose().catch(() => undefined);
      }
    });
  });
}
