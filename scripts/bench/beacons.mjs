// Page-view beacons (POST /api/v) at a fixed rate from many clients, on one instance: the cost of
// the cookieless visit counts (docs/operations.md, "Visits and sources"). Each request comes from
// its own X-Forwarded-For address (the instance trusts one proxy, TRUST_PROXY=1, so that address
// is the client's), so the per-client limit never applies and each is a new visitor (a visitor
// hash written per request). After the run the instance's counts are read back (PostgreSQL
// directly, PGlite through the site's local socket) and compared with the beacons answered.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startNext } from './server.mjs';

/** Beacons per second asked for, and for how long (s). */
export const BEACON_RATE = Number(process.env.BENCH_BEACON_RATE ?? 500);
export const BEACON_SECONDS = Number(process.env.BENCH_BEACON_SECONDS ?? 10);
/** The rate PostgreSQL must sustain on one instance (docs/performance.md): the bench fails below. */
export const BEACON_BUDGET = 500;

/** How long the instance gets to write what it holds (its flush interval is 5 s), at most, in ms. */
const SETTLE_MS = 20_000;

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PATHS = ['/', '/about-us', '/contact-us', '/products/0'];

/**
 * Sends `rate` beacons a second, `rate` x `seconds` in all, to the instance at `url` (which must
 * run with TRUST_PROXY=1), from a new client address each, waits for every answer, and returns
 * the rate reached (beacons answered 204 over the time from the first request to the last
 * answer), that time, latencies and every answer that was not 204 or failed.
 */
export async function measureBeacons(url, { rate = BEACON_RATE, seconds = BEACON_SECONDS } = {}) {
  let n = 0;
  const result = await autocannon({
    url: `${url}/api/v`,
    // Enough connections that a slow answer never holds the rate below what is asked.
    connections: 100,
    overallRate: rate,
    amount: rate * seconds,
    requests: [
      {
        method: 'POST',
        setupRequest(request) {
          n++;
          const body = JSON.stringify({
            path: PATHS[n % PATHS.length],
            landingPage: '/',
            utmSource: 'bench',
            utmCampaign: `campaign-${n % 7}`,
          });
          return {
            ...request,
            body,
            headers: {
              origin: url,
              'content-type': 'text/plain;charset=UTF-8',
              'user-agent': CHROME,
              'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            },
          };
        },
      },
    ],
  });
  return {
    asked: rate,
    beaconsPerSecond: result['2xx'] / result.duration,
    seconds: result.duration,
    sent: n,
    answered204: result['2xx'],
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** The views counted so far by the database `client` reaches (sum over every day). */
async function countedViews(config) {
  const client = new pg.Client(config);
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT coalesce(sum(views), 0)::int AS views FROM visit_counts',
    );
    return rows[0].views;
  } finally {
    await client.end();
  }
}

/**
 * The beacon figure of the instance at `url` (already running) whose database `dbConfig` (a `pg`
 * client config) reaches: measureBeacons, then, once the instance has flushed, the views it
 * counted (`counted`: every beacon answered 204 is a new visitor's view of a known page, so they
 * must be equal; read until they are, for at most SETTLE_MS).
 */
export async function beaconsWithCounts(url, dbConfig) {
  const before = await countedViews(dbConfig);
  const measured = await measureBeacons(url);
  // Until every answered beacon is in the counts, or SETTLE_MS (then the difference is reported).
  let counted = (await countedViews(dbConfig)) - before;
  for (const end = Date.now() + SETTLE_MS; counted < measured.answered204 && Date.now() < end;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    counted = (await countedViews(dbConfig)) - before;
  }
  return { ...measured, counted };
}

/** The PGlite instance's database, through the site's local socket in `dataDir` (pglite-bridge.ts). */
export function pgliteSocket(dataDir) {
  return { host: path.join(dataDir, 'socket'), user: 'postgres', database: 'postgres' };
}

/**
 * A PostgreSQL server for the beacon figure: TEST_DATABASE_URL's when set, else a throwaway
 * cluster started by scripts/start-test-postgres.sh in a temporary folder on port 54339
 * (BENCH_PG_PORT), stopped and deleted by `stop`.
 * @returns {{ adminUrl: string, source: string, stop: () => void }}
 */
export function benchPostgres(repo) {
  if (process.env.TEST_DATABASE_URL)
    return { adminUrl: process.env.TEST_DATABASE_URL, source: 'TEST_DATABASE_URL', stop() {} };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nirmaya-bench-pg-'));
  const port = process.env.BENCH_PG_PORT ?? '54339';
  const started = spawnSync('bash', [path.join(repo, 'scripts', 'start-test-postgres.sh')], {
    env: { ...process.env, TEST_PG_DIR: dir, TEST_PG_PORT: port },
    encoding: 'utf8',
  });
  if (started.status !== 0) throw new Error(`PostgreSQL did not start: ${started.stderr}`);
  const adminUrl = /TEST_DATABASE_URL=(\S+)/.exec(started.stdout)?.[1];
  if (!adminUrl) throw new Error(`PostgreSQL started without a URL: ${started.stdout}`);
  return {
    adminUrl,
    source: `a throwaway cluster on port ${port}`,
    stop() {
      const bin = spawnSync(
        'bash',
        ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1'],
        {
          encoding: 'utf8',
        },
      ).stdout.trim();
      const asOwner = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
      const [command, ...args] = [
        ...asOwner,
        `${bin}/pg_ctl`,
        '-D',
        `${dir}/data`,
        '-m',
        'fast',
        'stop',
      ];
      spawnSync(command, args, { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The beacon figure on PostgreSQL: an instance of the build in `distDir` on `port`, on a fresh
 * database of the server at `adminUrl` (dropped afterwards), measured like the PGlite one.
 */
export async function beaconsOnPostgres(repo, { adminUrl, distDir, port }) {
  const name = `bench_beacons_${Date.now().toString(36)}`;
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const server = await startNext(
    repo,
    port,
    {
      NEXT_DIST_DIR: distDir,
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: url.toString(),
      FORM_SECRET: 'bench-secret-0123456789abcdef0123456789abcdef',
      TRUST_PROXY: '1',
      SITE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
    },
    { script: path.join(repo, 'scripts', 'start.mjs') },
  );
  try {
    return await beaconsWithCounts(server.url, { connectionString: url.toString() });
  } finally {
    await server.stop();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/**
 * What the beacon figures miss: on either database an answer other than 204, or counts other than
 * the beacons answered; on PostgreSQL also a failed request (a timeout), or a run that did not keep
 * pace with BEACON_BUDGET a second: its last answer more than 2% after the planned seconds (at
 * 500/s for 10 s, 0.2 s: an instance that falls behind builds a queue that only grows). The
 * figure printed, answers over the whole time, stays a little under the rate asked even then: the
 * last answer's latency is in it. PGlite's rate and timeouts are reported, not judged.
 */
export function beaconMisses(beacons) {
  const misses = [];
  for (const [database, b] of Object.entries(beacons)) {
    if (b.non2xx) misses.push(`${database}: ${b.non2xx} answers other than 204`);
    if (database === 'postgres' && b.errors) misses.push(`${database}: ${b.errors} errors`);
    if (b.counted !== b.answered204)
      misses.push(`${database}: ${b.counted} views counted for ${b.answered204} beacons answered`);
  }
  const postgres = beacons.postgres;
  const planned = BEACON_SECONDS;
  if (postgres && !(postgres.asked >= BEACON_BUDGET && postgres.seconds <= planned * 1.02))
    misses.push(
      `postgres: ${postgres.sent} beacons asked at ${postgres.asked}/s took ${postgres.seconds.toFixed(2)} s ` +
        `(${postgres.beaconsPerSecond.toFixed(0)}/s); ${BEACON_BUDGET}/s for ${BEACON_SECONDS} s must end within ${(planned * 1.02).toFixed(1)} s`,
    );
  return misses;
}
