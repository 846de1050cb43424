import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startProductionServer, type ProductionServer } from '@test/next-server';

/**
 * The seam in front of Next.js (src/seam), tried from outside as an attacker would, on the
 * production entry (`npm start`'s): requests for other spellings of a real build file must not
 * grow the instance's memory, and a bad `Host` on a direct route is a 400, not an error.
 */
const METRICS_TOKEN = 'metrics-token-for-the-seam-test';
const ROUNDS = 3;
const PER_ROUND = 10_000;
const CONCURRENCY = 32;
/** Resident memory may grow this much from the first round to the last (bytes). */
const RSS_SLACK = 20 * 1024 * 1024;
/** How long the server is left idle after a round before its memory is read (ms). */
const SETTLE_MS = 4_000;

let server: ProductionServer;
/** A real file of the build under /_next/static/, big enough to be compressed (its canonical URL). */
let file: string;
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

beforeAll(async () => {
  const chunks = path.join(repoRoot, '.next', 'static', 'chunks');
  const name = readdirSync(chunks)
    .filter((entry) => entry.endsWith('.js'))
    .map((entry) => ({ entry, size: statSync(path.join(chunks, entry)).size }))
    .filter(({ size }) => size > 4_000 && size < 40_000)
    .sort((a, b) => a.size - b.size)[0]!.entry;
  file = `/_next/static/chunks/${name}`;
  // As the container runs it (Dockerfile: glibc's per-thread malloc arenas otherwise swing the
  // resident memory by tens of MB from one round to the next, whatever the code keeps).
  server = await startProductionServer({ env: { METRICS_TOKEN, MALLOC_ARENA_MAX: '2' } });
});

afterAll(async () => {
  agent.destroy();
  await server?.stop();
});

/** One GET with a raw request target (sent as is, not normalised), brotli accepted. */
function get(
  target: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: target,
        method,
        agent,
        headers: { 'accept-encoding': 'br', ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** The `n`-th spelling of `file`: about 4 KB of `./` and `x<n>/../` segments, each one unique. */
function spelling(n: number): string {
  const rest = file.slice('/_next/static/'.length);
  return `/_next/static/${'./'.repeat(1_990 + (n % 50))}x${n}/../${rest}`;
}

/** The server process's resident memory (bytes), from /proc. */
function residentBytes(): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)![1]) * 1024;
}

/**
 * The server's resident memory once the round's garbage may be collected: the lowest of samples
 * over `SETTLE_MS` of idleness (V8 shrinks its heap when allocation stops; one sample right after a
 * burst reads tens of MB of garbage not yet collected, up or down with the machine's load).
 */
async function settledResidentBytes(): Promise<number> {
  let lowest = residentBytes();
  for (let waited = 0; waited < SETTLE_MS; waited += 500) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    lowest = Math.min(lowest, residentBytes());
  }
  return lowest;
}

/** The seam's cache figures from /api/metrics: bytes held and the cap. */
async function cacheMetric(): Promise<{ held: number; cap: number }> {
  const text = (
    await get('/api/metrics', { authorization: `Bearer ${METRICS_TOKEN}`, 'accept-encoding': '' })
  ).body.toString();
  const value = (measure: string) =>
    Number(
      new RegExp(`^nirmaya_seam_static_cache_bytes\\{measure="${measure}"\\} (\\d+)`, 'm').exec(
        text,
      )?.[1],
    );
  return { held: value('held'), cap: value('cap') };
}

describe('the seam', () => {
  it(`keeps memory flat over ${ROUNDS} rounds of ${PER_ROUND} other spellings of a build file`, async () => {
    const expected = readFileSync(path.join(repoRoot, '.next', file.slice('/_next/'.length)));
    const statuses = new Map<number, number>();
    const rss: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let next = round * PER_ROUND;
      const end = next + PER_ROUND;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < end) {
            const { status } = await get(spelling(next++));
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
      rss.push(await settledResidentBytes());
    }
    const real = await get(file);
    const metric = await cacheMetric();
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    console.log(
      `seam: ${ROUNDS * PER_ROUND} spellings of ${file} (${spelling(0).length} B each): statuses ` +
        `${JSON.stringify(Object.fromEntries(statuses))}; RSS after each round ${rss.map(mb).join(', ')} MB ` +
        `(+${mb(rss[ROUNDS - 1]! - rss[0]!)} MB from round 1 to ${ROUNDS}); cache ${metric.held} of ${metric.cap} bytes`,
    );
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    expect(rss[ROUNDS - 1]! - rss[0]!).toBeLessThan(RSS_SLACK);
    expect(metric.cap).toBeGreaterThan(0);
    expect(metric.held).toBeLessThanOrEqual(metric.cap);
    // The file's own URL: answered with brotli, its body the build's file.
    expect(real.status).toBe(200);
    expect(real.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(real.body).equals(expected)).toBe(true);
  });

  it('answers a direct route whose Host is not a valid authority with 400, and logs no error', async () => {
    const before = server.output().length;
    for (const host of ['exa mple', '[zz', 'a/b', 'x:99999999'])
      expect((await get('/api/v', { host }, 'POST')).status, host).toBe(400);
    expect((await get('/api/v', { host: `127.0.0.1:${server.port}` })).status).toBe(200);
    const lines = server.output().slice(before).split('\n');
    expect(lines.filter((line) => line.includes('"level":50'))).toEqual([]);
    expect(lines.filter((line) => line.includes('"event":"http.bad_host"'))).toHaveLength(1);
  });
});
