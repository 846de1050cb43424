// `npm run bench`: builds the site into .next-bench, starts it as `npm start` does, and measures
//  - the HTML document of every public page on the wire (HTTP/1.1, brotli), from the instance and
//    through the reference edge (deploy/nginx.conf): one round trip (14,600 bytes) at most;
//  - Lighthouse (mobile: simulated slow 4G, 4x CPU) five times per route -> medians vs budgets,
//    side by side with the same pages without JavaScript served by nginx (the physical limit for
//    this content; simulated and, with applied throttling, observed LCP: the ratios are printed)
//    and an empty Next.js page built and measured the same way (the framework's floor), all over
//    HTTPS and HTTP/2 (the site through a TLS edge in front of the instance);
//  - HTML throughput and latency (autocannon, loopback) and the enquiry submission rate;
//  - the console's sign-in answer for an operator and a stranger, with a relay taking 1 s a mail.
//  - page-view beacons a second on PGlite and PostgreSQL (scripts/bench/beacons.mjs);
//  - the instance's resident memory (RSS) at rest and after the HTTP load and the enquiries.
// Writes bench-results/latest.json; exits 1 when a budget is missed.
// Options: --skip-build (reuse .next-bench), --runs N, --only /path[,/path], --no-empty, --no-load,
// --no-observed (skip the runs with applied throttling),
// --direct (Lighthouse over plain HTTP/1.1 to the instance, without the TLS edge),
// --beacons (only the page-view beacon figures, PGlite and PostgreSQL: see scripts/bench/beacons.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  BUDGETS,
  EDGE_PORT,
  EMPTY_EDGE_PORT,
  EMPTY_PORT,
  ENQUIRIES,
  LOAD_ROUTES,
  LOAD_SECONDS,
  PORT,
  ROUTES,
  RUNS,
} from './bench/config.mjs';
import { prepareEmptyNext } from './bench/empty-next.mjs';
import { measureEdgeThroughput } from './bench/edge-throughput.mjs';
import { measureEnquiries } from './bench/enquiries.mjs';
import { BENCH_OPERATOR, measureSignIn, startSlowRelay } from './bench/sign-in.mjs';
import {
  BEACON_RATE,
  BEACON_SECONDS,
  beaconMisses,
  beaconsOnPostgres,
  beaconsWithCounts,
  benchPostgres,
  pgliteSocket,
} from './bench/beacons.mjs';
import { measureLoad } from './bench/http-load.mjs';
import { listeningProcess, residentMB } from './bench/memory.mjs';
import { documentBytes, PUBLIC_ROUTES } from './bench/document-bytes.mjs';
import { startEdge, startNoJsCopy } from './bench/nginx-edge.mjs';
import { lighthouseMedian } from './bench/lighthouse.mjs';
import {
  budgetMisses,
  fmt,
  LIGHTHOUSE_HEADERS,
  lighthouseRow,
  printTable,
} from './bench/report.mjs';
import { buildNext, startNext } from './bench/server.mjs';
import { startTlsEdge } from './bench/tls-edge.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: {
    'skip-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: String(RUNS) },
    only: { type: 'string' },
    'no-empty': { type: 'boolean', default: false },
    'no-load': { type: 'boolean', default: false },
    direct: { type: 'boolean', default: false },
    'no-observed': { type: 'boolean', default: false },
    beacons: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(options.runs));
const routes = options.only ? options.only.split(',') : ROUTES;
const distDir = '.next-bench';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nirmaya-bench-data-'));
const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  loadAverageAtStart: os.loadavg()[0],
  runs,
  transport: options.direct ? 'HTTP/1.1, direct to next start' : 'HTTPS, HTTP/2 (TLS edge)',
  budgets: BUDGETS,
};
if (results.loadAverageAtStart > results.cpus) {
  console.warn(
    `Load average ${results.loadAverageAtStart.toFixed(1)} on ${results.cpus} CPUs: other work will slow the measurements.`,
  );
}

const section = (title) => console.log(`\n== ${title}`);

/**
 * The origin Lighthouse loads: the TLS edge in front of `server` on `edgePort`, or `server`
 * itself with --direct. Its `stop` stops the edge only.
 */
async function front(server, edgePort) {
  if (options.direct) return { url: server.url, stop: async () => {} };
  return startTlsEdge({ port: edgePort, targetPort: Number(new URL(server.url).port) });
}

async function measureEmptyPage() {
  section('Empty Next.js page (framework floor)');
  const dir = prepareEmptyNext(repo);
  buildNext(dir, { NEXT_TELEMETRY_DISABLED: '1' });
  const server = await startNext(dir, EMPTY_PORT, { NEXT_TELEMETRY_DISABLED: '1' });
  const edge = await front(server, EMPTY_EDGE_PORT);
  try {
    return await lighthouseMedian(`${edge.url}/`, runs);
  } finally {
    await edge.stop();
    await server.stop();
  }
}

/**
 * Creates the site's PGlite database in the bench's DATA_DIR with the release step (`npm run
 * db:migrate`, as compose's `migrate` job runs it before the instances), so that the instance
 * opens an existing database as a running site does. Creating one (PostgreSQL's initdb, in
 * WebAssembly) grows PGlite's memory by some 500 MB, which WebAssembly never gives back, so an
 * instance that created its own would report that as its resident memory (docs/performance.md,
 * "Memory"). Throws when the step fails.
 */
function createDatabase(env) {
  const step = spawnSync(
    path.join(repo, 'node_modules', '.bin', 'tsx'),
    ['--conditions=react-server', path.join(repo, 'scripts', 'db-migrate.mts')],
    { cwd: repo, env: { ...process.env, ...env, DATA_DIR: dataDir }, stdio: 'inherit' },
  );
  if (step.status !== 0) throw new Error(`npm run db:migrate failed (exit ${step.status})`);
}

/** Starts the site built in `distDir` (and its edge); `stop` stops both. */
async function startSite(env) {
  createDatabase({ ...env, LOG_LEVEL: 'warn' });
  // As `npm start` runs it: the standalone bundle, with brotli (scripts/start.mjs).
  const server = await startNext(
    repo,
    PORT,
    {
      ...env,
      DATA_DIR: dataDir,
      TRUST_PROXY: '1',
      SITE_URL: options.direct ? `http://127.0.0.1:${PORT}` : `https://127.0.0.1:${EDGE_PORT}`,
      LOG_LEVEL: 'warn',
    },
    { script: path.join(repo, 'scripts', 'start.mjs') },
  );
  const edge = await front(server, EDGE_PORT);
  return {
    server,
    edge,
    async stop() {
      await edge.stop();
      await server.stop();
    },
  };
}

/**
 * The page-view beacon figures (scripts/bench/beacons.mjs): on the PGlite instance `server` (its
 * counts read through its socket in the bench's DATA_DIR), then on PostgreSQL (TEST_DATABASE_URL,
 * else a throwaway cluster); any miss is added to `results.misses` once they are known.
 */
async function measureBeaconFigures(server) {
  section(`Page-view beacons (${BEACON_RATE}/s for ${BEACON_SECONDS} s, a new client each)`);
  results.beacons = { pglite: await beaconsWithCounts(server.url, pgliteSocket(dataDir)) };
  const postgres = benchPostgres(repo);
  console.log(`PostgreSQL: ${postgres.source}`);
  try {
    results.beacons.postgres = await beaconsOnPostgres(repo, {
      adminUrl: postgres.adminUrl,
      distDir,
      port: PORT + 5,
    });
  } finally {
    postgres.stop();
  }
  printTable(
    [
      'database',
      'asked/s',
      'beacons/s',
      'took s',
      'p50 ms',
      'p99 ms',
      'non-2xx',
      'errors',
      'counted/answered/sent',
    ],
    Object.entries(results.beacons).map(([database, b]) => [
      database,
      b.asked,
      fmt(b.beaconsPerSecond),
      fmt(b.seconds, 2),
      fmt(b.latencyP50Ms),
      fmt(b.latencyP99Ms),
      b.non2xx,
      b.errors,
      `${b.counted}/${b.answered204}/${b.sent}`,
    ]),
  );
}

/**
 * The resident memory (MB) of the process of `server` that listens on its port, now, into
 * `results.memory[key]`; reported, not judged (no budget yet). A failure to read it (no /proc) is
 * recorded in its place and does not stop the bench.
 */
function recordMemory(server, key, label) {
  results.memory ??= {};
  try {
    results.memory.pid ??= listeningProcess(server.pid, Number(new URL(server.url).port));
    results.memory[key] = residentMB(results.memory.pid);
    console.log(`Resident memory ${label}: ${fmt(results.memory[key])} MB`);
  } catch (error) {
    results.memory[`${key}Error`] = String(error instanceof Error ? error.message : error);
    console.log(`Resident memory ${label}: not measured (${results.memory[`${key}Error`]})`);
  }
}

/** `--beacons`: builds (unless --skip-build), starts the site on PGlite and measures only the beacons. */
async function measureBeaconsOnly() {
  const env = { NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1' };
  if (!options['skip-build']) {
    section(`Building the site into ${distDir}`);
    buildNext(repo, env);
  }
  const { server, stop } = await startSite(env);
  try {
    await measureBeaconFigures(server);
  } finally {
    await stop();
  }
}

async function measureSite() {
  // Mail through a relay that takes 1 s per message, for the sign-in timing (an operator's
  // address must be answered as fast as a stranger's).
  const relay = await startSlowRelay(1_000);
  const env = {
    NEXT_DIST_DIR: distDir,
    NEXT_TELEMETRY_DISABLED: '1',
    SMTP_URL: relay.url,
    LEADS_TO: 'bench-leads@nirmaya.example',
    ADMIN_EMAILS: BENCH_OPERATOR,
    SIGN_IN_MAX: '1000',
  };
  if (!options['skip-build']) {
    section(`Building the site into ${distDir}`);
    buildNext(repo, env);
  }
  const { server, edge, stop } = await startSite(env);
  const noJs = await startNoJsCopy(server.url, routes, path.join(repo, distDir, 'static'));
  try {
    section('Resident memory of the instance (RSS, /proc/<pid>/status)');
    // At rest: started, and each public page asked for once, so its route module is loaded.
    for (const route of PUBLIC_ROUTES) await (await fetch(`${server.url}${route}`)).arrayBuffer();
    recordMemory(server, 'atRestMB', 'at rest (after one request of each page)');

    section('HTML document on the wire (HTTP/1.1, Accept-Encoding: br, gzip; headers included)');
    const referenceEdge = await startEdge([new URL(server.url).host]);
    results.documents = [];
    try {
      for (const route of PUBLIC_ROUTES) {
        const direct = await documentBytes(`${server.url}${route}`);
        await documentBytes(`${referenceEdge.url}${route}`); // fills the edge cache
        const viaEdge = await documentBytes(`${referenceEdge.url}${route}`);
        results.documents.push({ route, direct, edge: viaEdge });
      }
    } finally {
      await referenceEdge.stop();
    }
    printTable(
      ['route', 'npm start', 'encoding', 'headers', 'edge', 'encoding'],
      results.documents.map((d) => [
        d.route,
        d.direct.bytes,
        d.direct.encoding,
        d.direct.headerBytes,
        d.edge.bytes,
        d.edge.encoding,
      ]),
    );

    section(
      `Lighthouse, mobile, ${runs} run(s) per route (medians), ${results.transport}; the no-JS copy from nginx`,
    );
    results.lighthouse = [];
    for (const route of routes) {
      const m = await lighthouseMedian(`${edge.url}${route}`, runs);
      const bare = await lighthouseMedian(`${noJs.url}${route}`, runs);
      const observed = options['no-observed']
        ? {}
        : {
            site: await lighthouseMedian(`${edge.url}${route}`, runs, {
              throttlingMethod: 'devtools',
            }),
            bare: await lighthouseMedian(`${noJs.url}${route}`, runs, {
              throttlingMethod: 'devtools',
            }),
          };
      const row = {
        route,
        ...m,
        noJsLcpMs: bare.lcpMs,
        observedLcpMs: observed.site?.lcpMs ?? Number.NaN,
        noJsObservedLcpMs: observed.bare?.lcpMs ?? Number.NaN,
        noJs: bare,
        observed,
      };
      results.lighthouse.push(row);
      console.log(
        `${route}: perf ${fmt(m.performance, 3)}, LCP ${fmt(m.lcpMs)} ms (no JS ${fmt(bare.lcpMs)}: ${fmt(m.lcpMs / bare.lcpMs, 2)}x), observed ${fmt(row.observedLcpMs)} ms (no JS ${fmt(row.noJsObservedLcpMs)}: ${fmt(row.observedLcpMs / row.noJsObservedLcpMs, 2)}x), TBT ${fmt(m.tbtMs)} ms${m.errors.length ? `, errors: ${m.errors.join('; ')}` : ''}`,
      );
    }
    if (!options['no-load']) {
      section(
        `HTML throughput and latency (autocannon, ${LOAD_SECONDS} s each, 10 connections, loopback)`,
      );
      results.load = [];
      for (const route of LOAD_ROUTES) {
        const load = await measureLoad(`${server.url}${route}`, { seconds: LOAD_SECONDS });
        results.load.push({ route, ...load });
      }
      printTable(
        ['route', 'req/s', 'p50 ms', 'p99 ms', 'KiB/s', 'non-2xx', 'errors'],
        results.load.map((l) => [
          l.route,
          fmt(l.requestsPerSecond),
          fmt(l.latencyP50Ms, 1),
          fmt(l.latencyP99Ms, 1),
          fmt(l.throughputKiBps),
          l.non2xx,
          l.errors,
        ]),
      );

      section(
        `HTML req/s: reference edge (cache warm) vs the instance vs nginx from disk (${LOAD_SECONDS} s each)`,
      );
      results.edge = await measureEdgeThroughput(
        server.url,
        path.join(repo, distDir, 'server', 'app'),
        {
          seconds: LOAD_SECONDS,
        },
      );
      printTable(
        ['route', 'instance', 'edge', 'disk', 'edge/instance', 'disk/edge', 'failed'],
        results.edge.map((r) => [
          r.route,
          fmt(r.instance),
          fmt(r.edge),
          fmt(r.disk),
          fmt(r.edgeOverInstance, 2),
          fmt(r.diskOverEdge, 2),
          r.failed,
        ]),
      );

      section(`Enquiry submissions (${ENQUIRIES} no-JS form posts, 8 clients, distinct addresses)`);
      results.enquiries = await measureEnquiries(server.url, { count: ENQUIRIES });
      const e = results.enquiries;
      console.log(
        `${e.accepted}/${e.posted} accepted, ${fmt(e.enquiriesPerSecond, 1)} enquiries/s (p50 ${fmt(e.latencyP50Ms)} ms, p99 ${fmt(e.latencyP99Ms)} ms); form loads ${fmt(e.formLoadsPerSecond, 1)}/s`,
      );
      if (Object.keys(e.refused).length) console.log('refused:', e.refused);
      recordMemory(server, 'afterLoadMB', 'after the HTTP load and the enquiries');

      await measureBeaconFigures(server);
    }

    section('Console sign-in answer, operator vs stranger (relay takes 1 s per mail)');
    results.signIn = await measureSignIn(server.url);
    const s = results.signIn;
    console.log(
      `median over ${s.rounds} each: operator ${fmt(s.operatorMedianMs, 1)} ms, stranger ${fmt(s.strangerMedianMs, 1)} ms; answers ${s.answers.join(', ')}`,
    );
  } finally {
    await noJs.stop();
    await stop();
    await relay.stop();
  }
}

/** Every measurement but the beacons' own budget check; fills `results.misses`. */
async function measureAll() {
  if (!options['no-empty']) results.empty = await measureEmptyPage();
  await measureSite();

  section(`Lighthouse medians (${results.transport})`);
  const floor = results.empty?.jsKiB ?? Number.NaN;
  const rows = results.lighthouse.map((m) => lighthouseRow(m.route, m));
  if (results.empty) rows.push(lighthouseRow('(empty Next.js)', results.empty));
  printTable(LIGHTHOUSE_HEADERS, rows);

  results.loadAverageAtEnd = os.loadavg()[0];
  console.log(
    `Load average: ${results.loadAverageAtStart.toFixed(1)} at start, ${results.loadAverageAtEnd.toFixed(1)} at end (${results.cpus} CPUs)`,
  );
  if (results.memory)
    console.log(
      `Resident memory of the instance (pid ${results.memory.pid ?? '—'}): ${fmt(results.memory.atRestMB)} MB at rest, ${fmt(results.memory.afterLoadMB)} MB after its load${options['no-load'] ? ' (--no-load: not loaded)' : ''}`,
    );

  section('Budgets');
  results.misses = {};
  for (const m of results.lighthouse) {
    const misses = budgetMisses(m, floor, results.empty);
    if (m.runs < runs)
      misses.push(`only ${m.runs} of ${runs} Lighthouse runs completed: ${m.errors.join('; ')}`);
    if (misses.length) results.misses[m.route] = misses;
    if (m.failedAudits.length)
      console.log(`${m.route}: failed audits ${m.failedAudits.join(', ')}`);
  }
  for (const d of results.documents ?? []) {
    const misses = [];
    for (const [where, sent] of [
      ['npm start', d.direct],
      ['edge', d.edge],
    ])
      if (!(sent.bytes <= BUDGETS.documentBytes))
        misses.push(`document ${sent.bytes} bytes via ${where} > ${BUDGETS.documentBytes}`);
    if (misses.length) results.misses[d.route] = [...(results.misses[d.route] ?? []), ...misses];
  }
  for (const r of results.edge ?? []) {
    if (!(r.edge >= BUDGETS.edgeOverDisk * r.disk))
      results.misses[`edge ${r.route}`] = [
        `edge ${fmt(r.edge)} req/s < ${BUDGETS.edgeOverDisk} x nginx from disk ${fmt(r.disk)}`,
      ];
  }
  if (results.empty)
    console.log(
      `TBT target where the framework allows: ${BUDGETS.tbtTargetMs} ms (empty Next.js page: ${fmt(results.empty.tbtMs)} ms)`,
    );
  if (results.enquiries && results.enquiries.accepted !== results.enquiries.posted) {
    results.misses.enquiries = [
      `${results.enquiries.posted - results.enquiries.accepted} enquiries refused`,
    ];
  }
}

let failed = false;
try {
  if (options.beacons) {
    await measureBeaconsOnly();
    results.misses = {};
  } else await measureAll();
  const beaconMissed = beaconMisses(results.beacons ?? {});
  if (beaconMissed.length) results.misses.beacons = beaconMissed;
  for (const [route, misses] of Object.entries(results.misses))
    console.log(`MISSED ${route}: ${misses.join('; ')}`);
  failed = Object.keys(results.misses).length > 0;
  console.log(failed ? '\nSome budgets were missed.' : '\nAll budgets met.');
} catch (error) {
  failed = true;
  results.error = String(error instanceof Error ? (error.stack ?? error.message) : error);
  console.error(error);
} finally {
  mkdirSync(path.join(repo, 'bench-results'), { recursive: true });
  writeFileSync(
    path.join(repo, 'bench-results', 'latest.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  console.log('Results: bench-results/latest.json');
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
