import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URL_LIMIT_BYTES } from '@/lib/http/request-limits';
import { parseProductId } from '@/lib/product-tab';
import { startProductionServer, type ProductionServer } from '@test/next-server';
import { expectRefusalPage, Histogram } from '@test/refusal';

/**
 * Property-based fuzz of route parameters and URLs against a real `next start` (seeded:
 * `FUZZ_SEED` to replay). `/products/<anything>` (long, percent-encoded, invalid UTF-8 escapes,
 * negative, huge, fractional), unknown paths, long paths and query strings, and other methods: the
 * spec's tab (§2: 0-8 selects it, missing or non-numeric is tab 0, another number 404), 404 for
 * unknown paths, 414 past `URL_LIMIT_BYTES`, 405 for methods pages do not take; never 5xx.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 15_015);
const RUNS = 500;

let server: ProductionServer;
let dataDir: string;
const histogram = new Histogram();

/**
 * A raw request (no URL normalisation by the client): status, content type and body. Other methods
 * than GET carry a small multipart body, which Next.js would try as a server action.
 */
function get(target: string, method = 'GET') {
  return new Promise<{ status: number; type: string | null; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: target, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? null, body }),
      );
    });
    req.on('error', reject);
    if (method === 'GET') return void req.end();
    req.setHeader('content-type', 'multipart/form-data; boundary=x');
    req.setHeader('content-length', '5');
    req.end('--x\r\n');
  });
}

/** The tab a product page shows (`aria-selected` in its HTML), or null. */
const selectedTab = (html: string) =>
  /id="product-tab-(\d)"[^>]*aria-selected="true"/.exec(html)?.[1] ?? null;

/** What `/products/<segment>` must answer: the tab, or 404 (spec §2, src/lib/product-tab.ts). */
function expectedProduct(segment: string): number | 'not-found' {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    return 0; // not even text: not numeric, so tab 0
  }
  const index = parseProductId(id);
  return index === null ? 'not-found' : index;
}

const hex = fc.constantFrom(...'0123456789ABCDEFabcdef'.split(''));
/** A percent-escape, valid or not (`%C0`, `%FF`, `%E2%82` cut short, `%G1`, a lone `%`). */
const escape = fc.oneof(
  fc.tuple(hex, hex).map(([a, b]) => `%${a}${b}`),
  fc.constantFrom('%', '%G1', '%C0%AF', '%E2%82', '%FF', '%00', '%2F', '%2e%2e'),
);
const segment = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent),
  fc
    .array(fc.oneof(escape, fc.constantFrom('a', '1', '-', '.', '~')), { maxLength: 30 })
    .map((parts) => parts.join('')),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.integer({ min: 0, max: 12 }).map((n) => `${'0'.repeat(n % 4)}${n}`),
  fc.integer({ min: 1, max: 10_000 }).map((n) => 'x'.repeat(n)),
);

/** A non-empty path segment other than `.` and `..` (which clients and Next.js normalise away). */
const pathSegment = segment.filter((s) => s !== '' && s !== '.' && s !== '..');

/** One fuzzed request: its target, method and how to check the answer. */
type RouteCase = { kind: string; target: string; method?: string };

const routeCase: fc.Arbitrary<RouteCase> = fc.oneof(
  {
    weight: 5,
    arbitrary: pathSegment.map((s) => ({ kind: 'product', target: `/products/${s}` })),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(pathSegment, { minLength: 1, maxLength: 4 })
      .map((parts) => ({ kind: 'unknown', target: `/no-such-page/${parts.join('/')}` })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('/', '/about-us', '/contact-us', '/products/3'),
        fc.integer({ min: 0, max: 12_000 }),
        fc.array(escape, { maxLength: 5 }),
      )
      .map(([page, length, escapes]) => ({
        kind: 'query',
        target: `${page}?q=${escapes.join('')}${'y'.repeat(length)}`,
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('PUT', 'DELETE', 'PATCH', 'POST'),
        fc.constantFrom('/', '/about-us', '/products/2', '/no-such-page', '/api/no-such-route'),
      )
      .map(([method, target]) => ({ kind: 'method', target, method })),
  },
);

describe('route parameters and URLs (fuzz)', () => {
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-routes-'));
    server = await startProductionServer({ env: { DATA_DIR: dataDir } });
  });

  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers the spec’s tab, 404, 405 or 414 and never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(routeCase, async ({ kind, target, method = 'GET' }) => {
        const { status, type, body } = await get(target, method);
        histogram.add(kind, status);
        const context = `${method} ${target.slice(0, 120)}… (${target.length} bytes)`;
        expect(status, context).toBeLessThan(500);
        if (Buffer.byteLength(target) > URL_LIMIT_BYTES) {
          expect(status, context).toBe(414);
        } else if (kind === 'method') {
          expect(status, context).toBe(405);
        } else if (kind === 'product') {
          const expected = expectedProduct(target.slice('/products/'.length));
          if (expected === 'not-found') expect(status, context).toBe(404);
          else {
            expect(status, context).toBe(200);
            expect(selectedTab(body), context).toBe(String(expected));
          }
        } else if (kind === 'unknown') {
          expect(status, context).toBe(404);
        } else {
          expect(status, context).toBe(200);
        }
        if (status !== 200) expectRefusalPage(status, body, type);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    console.log(
      `route fuzz (seed ${SEED}, ${RUNS} runs): answers by kind and status\n${histogram}`,
    );
    expect(histogram.serverErrors()).toBe(0);
    expect((await get('/')).status).toBe(200);
    expect(server.output()).not.toMatch(/^\s+at /m);
  });
});
