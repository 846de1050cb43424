// Scale-out: the reference edge (Debian's nginx with deploy/nginx.conf) in front
// of two standalone instances sharing one PostgreSQL database and a real SMTP server, all on
// loopback. Distinct clients are distinct source addresses (127.0.x.y).
import { chromium, type Browser } from '@playwright/test';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPaths } from '@/content/routes';
import { freePort, startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { openTestDatabase, type TestDatabase } from '@test/databases';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';
import { like } from 'drizzle-orm';
import { leads } from '@/server/features/contact/schema';
import {
  enquiryValues,
  hiddenInputs,
  loadForm,
  postEnquiry,
  submitForm,
  type EnquiryResult,
} from '@test/contact-form';
import { cspProblems } from '@test/csp';
import { startEdge, type Edge } from '../../scripts/bench/nginx-edge.mjs';
import { httpRequest } from '@test/http';
import { repoRoot, startProductionServer, type ProductionServer } from '@test/next-server';
import { TEST_SECRET } from '@test/form-token';

const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** The edge's passive health check: an instance that failed is skipped this long (s). */
const FAIL_TIMEOUT_S = 3;
const clientAddress = (n: number) => `127.0.${2 + (n >> 8)}.${n & 255 || 1}`;

/** Two console operators who must never see each other's pages through the edge. */
const OPERATORS = ['asha.ops@nirmaya.example', 'ravi.ops@nirmaya.example'];

let database: TestDatabase;
let smtp: TestSmtpServer;
let edge: Edge;
const ports: number[] = [];
const instances: ProductionServer[] = [];

/** Starts (or restarts) instance `index` of the standalone bundle on its fixed port. */
async function startInstance(index: number): Promise<ProductionServer> {
  const server = await startProductionServer({
    port: ports[index],
    command: () => ({
      file: process.execPath,
      args: [path.join(repoRoot, '.next/standalone/serve/start.mjs')],
      cwd: '/',
    }),
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      SMTP_URL: smtp.url,
      LEADS_TO: 'sales@nirmaya.example',
      FORM_SECRET: TEST_SECRET,
      TRUST_PROXY: '1',
      // A job claimed by the instance the test kills is taken over after this (default 5 min).
      OUTBOX_LEASE_SECONDS: '10',
      // Required with SMTP_URL and ADMIN_EMAILS; a loopback http address, as the edge's port is
      // chosen later: the test opens the e-mailed links' paths on the edge, cookies as before.
      SITE_URL: 'http://127.0.0.1',
      DATA_DIR: undefined,
      ADMIN_EMAILS: OPERATORS.join(','),
      SIGN_IN_MAX: '20',
    },
    readyPath: '/api/health',
  });
  instances[index] = server;
  return server;
}

/** Polls `check` every 250 ms until it holds (true) or `timeoutMs` passes (then false). */
async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
}

describe.skipIf(!hasPostgres)('two instances behind the reference edge', () => {
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    smtp = await startSmtpServer();
    ports.push(await freePort(), await freePort());
    await Promise.all([startInstance(0), startInstance(1)]);
    edge = await startEdge(
      ports.map((port) => `127.0.0.1:${port}`),
      FAIL_TIMEOUT_S,
    );
  });

  afterAll(async () => {
    await edge?.stop();
    await Promise.all(instances.map((instance) => instance?.stop('SIGKILL')));
    await smtp?.close();
    await database?.dispose();
  });

  it('redirects http to https and answers over HTTP/2-capable TLS', async () => {
    const response = await httpRequest(`${edge.httpUrl}/about-us`);
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe(`${edge.url}/about-us`);
  });

  it('never mixes the HTML and the RSC payload of one URL in the edge cache', async () => {
    // Next.js redirects an RSC request without its `_rsc` cache-busting query to the URL with it.
    const get = async (headers: Record<string, string>) => {
      const response = await httpRequest(`${edge.url}/about-us`, { headers });
      const location = response.headers.location;
      return response.status === 307 && location
        ? httpRequest(new URL(location, edge.url).href, { headers })
        : response;
    };
    const variants: Array<Record<string, string>> = [{}, {}, { rsc: '1' }, { rsc: '1' }, {}];
    const kinds: string[] = [];
    for (const headers of variants) {
      const response = await get(headers);
      kinds.push(
        `${headers.rsc ? 'rsc' : 'html'} ${response.headers['x-cache-status']} ${response.headers['content-type']}`,
      );
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(
        headers.rsc ? /^text\/x-component/ : /^text\/html/,
      );
    }
    console.log('edge cache, /about-us:', kinds.join('; '));
    expect(kinds[1]).toMatch(/^html HIT/);
  });

  it('logs paths without query strings, so a manage link never reaches the access log', async () => {
    const secret = 'm1.secret-booking-id.secret-signature';
    const logStart = edge.accessLog().length;
    const response = await httpRequest(`${edge.url}/contact-us/demo/manage?token=${secret}`, {
      headers: { referer: `${edge.url}/contact-us/demo/manage?token=${secret}` },
    });
    expect(response.status).toBeLessThan(500);
    expect(await until(() => edge.accessLog().length > logStart, 5_000)).toBe(true);
    const line = edge.accessLog().slice(logStart).trim();
    console.log(`edge access log of a manage link: ${line.split('\n').at(-1)}`);
    expect(line).toContain('GET /contact-us/demo/manage HTTP/');
    expect(line).not.toContain('secret');
  });

  it('accepts a form token issued by one instance on the other', async () => {
    const [a, b] = instances as [ProductionServer, ProductionServer];
    const headers = { 'x-forwarded-for': '198.51.100.10' };
    const form = await loadForm(a.url, headers);
    const result = await submitForm(b.url, form, enquiryValues(0, 'cross'), headers);
    console.log(
      `token from instance A posted to instance B: ${result.accepted ? 'accepted' : 'refused'} (${result.status})`,
    );
    expect(result.accepted, result.html.slice(0, 300)).toBe(true);
  });

  it('rate-limits real clients: forged X-Forwarded-For addresses do not help', async () => {
    const client = { localAddress: '127.0.1.250' };
    const forms = await Promise.all(
      Array.from({ length: 6 }, () => loadForm(edge.url, {}, client)),
    );
    const accepted: boolean[] = [];
    for (const [n, form] of forms.entries()) {
      const forged = { 'x-forwarded-for': `203.0.113.${n + 1}` };
      accepted.push(
        (await submitForm(edge.url, form, enquiryValues(n, 'forger'), forged, client)).accepted,
      );
    }
    console.log('one client, six forged addresses, RATE_LIMIT_MAX 5:', accepted.join(' '));
    expect(accepted).toEqual([true, true, true, true, true, false]);
  });

  it('shows no error page, loses and duplicates no enquiry, and e-mails each once when an instance is killed halfway', async () => {
    const total = 100;
    const tag = 'failover';
    const logStart = edge.accessLog().length;
    const results: Array<EnquiryResult | Error> = [];
    let answered = 0;
    // One visitor every 150 ms loads the form and posts it (no JavaScript) 3 s later.
    const visits = Array.from({ length: total }, async (_, n) => {
      await sleep(n * 150);
      try {
        const client = { localAddress: clientAddress(n) };
        results[n] = await postEnquiry(edge.url, enquiryValues(n, tag), {}, client);
      } catch (error) {
        results[n] = error as Error;
      }
      answered += 1;
    });
    await until(() => answered >= total / 2, 120_000);
    // Frozen first, so the requests the edge sends it meanwhile are in flight when it dies (as
    // when a machine hangs, then is killed): the edge must re-send them, posts included.
    const frozenAfter = answered;
    instances[1]!.child.kill('SIGSTOP');
    await sleep(2_000);
    const killed = await instances[1]!.stop('SIGKILL');
    await startInstance(1);
    const restartedAfter = answered;
    await Promise.all(visits);

    const references = results.flatMap((result) =>
      result instanceof Error || !result.accepted ? [] : [result.reference!],
    );
    const errorPages = results.flatMap((result, n) =>
      result instanceof Error
        ? [`${n}: ${result.message}`]
        : result.accepted
          ? []
          : [`${n}: ${result.status} ${result.message || result.html.slice(0, 200)}`],
    );
    const rows = await leadsOf(tag);
    const stored = new Set(rows.map((row) => row.reference));
    const lost = references.filter((reference) => !stored.has(reference));
    // Each visitor posts one form with an e-mail address of its own.
    const duplicated = [...new Set(rows.map((row) => row.email))].filter(
      (email) => rows.filter((row) => row.email === email).length > 1,
    );
    const retried = retriedRequests(edge.accessLog().slice(logStart));
    await until(() => references.every((reference) => mailsFor(reference) >= 1), 60_000);
    const mailed = references.filter((reference) => mailsFor(reference) === 1);
    console.log(
      `edge failover: ${total} posted, ${references.length} accepted, ${errorPages.length} error pages, ` +
        `${lost.length} lost, ${duplicated.length} duplicated; ${mailed.length} e-mailed exactly once\n` +
        `  instance B frozen after ${frozenAfter} answers, killed 2 s later (${killed}), ready again after ${restartedAfter}; ` +
        `the edge re-sent ${retried.posts} posts and ${retried.others} other requests to instance A`,
      errorPages.slice(0, 5),
    );
    if (errorPages.length > 0) console.log(edge.errors().split('\n').slice(-15).join('\n'));
    expect(errorPages).toEqual([]);
    expect(references).toHaveLength(total);
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    expect(mailed).toHaveLength(total);
    // The freeze left requests in flight on instance B; the edge re-sent them.
    expect(retried.posts + retried.others).toBeGreaterThan(0);
  });

  it('stores a form token posted twice through the edge once, and shows its reference both times', async () => {
    const tag = 'twice';
    const outcomes: string[] = [];
    for (const [n, order] of (['in sequence', 'in parallel'] as const).entries()) {
      const client = { localAddress: clientAddress(200 + n) };
      const values = enquiryValues(n, tag);
      const form = await loadForm(edge.url, {}, client);
      const post = () => submitForm(edge.url, form, values, {}, client);
      const [first, second] =
        order === 'in parallel'
          ? await Promise.all([post(), post()])
          : [await post(), await post()];
      const rows = (await leadsOf(tag)).filter((row) => row.email === values.email);
      outcomes.push(
        `${order}: ${first.reference ?? first.status}, ${second.reference ?? second.status}; ${rows.length} row`,
      );
      expect(first.accepted, first.html.slice(0, 300)).toBe(true);
      expect(second.reference).toBe(first.reference);
      expect(rows.map((row) => row.reference)).toEqual([first.reference]);
    }
    console.log(`same form token posted twice through the edge: ${outcomes.join('; ')}`);
  });

  it('never caches the console: two operators each see their own /admin through the edge', async () => {
    // Without a session: to the sign-in page, no data, nothing cached.
    for (const pathname of ['/admin']) {
      const response = await httpRequest(edge.url + pathname);
      expect(response.status, pathname).toBe(307);
      expect(response.headers.location, pathname).toMatch(/\/admin\/sign-in$/);
      expect(response.headers['cache-control'], pathname).toBe('private, no-store');
      expect(response.headers['x-cache-status'], pathname).toBe('BYPASS');
    }
    // The export is a POST only: a GET exports nothing.
    expect((await httpRequest(`${edge.url}/admin/export.csv`)).status).toBe(405);
    /** Signs `email` in through the edge as a browser without JavaScript would; returns its cookie. */
    const signIn = async (email: string, client: string): Promise<string> => {
      const page = await httpRequest(`${edge.url}/admin/sign-in`, { localAddress: client });
      const form = new FormData();
      for (const [name, value] of hiddenInputs(page.text)) form.append(name, value);
      form.append('email', email);
      const encoded = new Response(form);
      const asked = await httpRequest(`${edge.url}/admin/sign-in`, {
        method: 'POST',
        body: Buffer.from(await encoded.arrayBuffer()),
        headers: {
          origin: edge.url,
          'content-type': encoded.headers.get('content-type') ?? '',
        },
        localAddress: client,
      });
      expect(asked.status).toBe(303);
      const mail = () => smtp.received.find((received) => received.envelope.to.includes(email));
      expect(await until(() => mail() !== undefined, 20_000)).toBe(true);
      const link = new URL(/(http\S+sign-in\/confirm\S+)/.exec(mail()!.parsed.text ?? '')![1]!);
      // The link's page signs nobody in; its button's POST does.
      const confirm = await httpRequest(`${edge.url}${link.pathname}${link.search}`, {
        localAddress: client,
      });
      expect(confirm.status).toBe(200);
      expect(confirm.headers['set-cookie']).toBeUndefined();
      const verified = await httpRequest(`${edge.url}/api/auth/magic-link/verify`, {
        method: 'POST',
        body: Buffer.from(`token=${link.searchParams.get('token')}`),
        headers: { origin: edge.url, 'content-type': 'application/x-www-form-urlencoded' },
        localAddress: client,
      });
      expect(verified.status).toBe(302);
      expect(verified.headers['x-cache-status']).toBe('BYPASS');
      const cookie = (verified.headers['set-cookie'] ?? [])
        .map((header) => header.split(';')[0]!)
        .find((pair) => pair.startsWith('nirmaya-console.session='));
      expect(cookie).toBeDefined();
      return cookie!;
    };
    const cookies = [
      await signIn(OPERATORS[0]!, clientAddress(900)),
      await signIn(OPERATORS[1]!, clientAddress(901)),
    ];
    // Alternating, several times each: every answer is the asker's own page, never from the cache.
    for (let round = 0; round < 3; round++) {
      for (const [index, cookie] of cookies.entries()) {
        const response = await httpRequest(`${edge.url}/admin`, { headers: { cookie } });
        expect(response.status).toBe(200);
        expect(response.headers['cache-control']).toBe('private, no-store');
        expect(response.headers['x-cache-status']).toBe('BYPASS');
        expect(response.text).toContain(OPERATORS[index]!);
        expect(response.text).not.toContain(OPERATORS[1 - index]!);
      }
    }
    // And the same page asked for without a cookie right after: still the sign-in redirect.
    const anonymous = await httpRequest(`${edge.url}/admin`);
    expect(anonymous.status).toBe(307);
    expect(anonymous.text).not.toContain('ops@nirmaya.example');
  });

  it('serves every page request during a rolling restart (SIGTERM, start, then the other)', async () => {
    const paths = [...canonicalPaths, '/contact-us'];
    let requests = 0;
    const failures: string[] = [];
    let running = true;
    const loader = async (worker: number) => {
      while (running) {
        const pathname = paths[requests % paths.length]!;
        // A fresh query misses the edge cache, so every request reaches an instance.
        const url = `${edge.url}${pathname}?load=${worker}-${requests++}`;
        try {
          const response = await httpRequest(url, { timeoutMs: 20_000 });
          if (response.status !== 200) failures.push(`${response.status} ${pathname}`);
        } catch (error) {
          failures.push(`${(error as Error).message} ${pathname}`);
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(loader));
    for (const index of [0, 1]) {
      // Ready, and past the edge's fail_timeout, so nginx sends it traffic again (docs/deployment.md).
      await new Promise((resolve) => setTimeout(resolve, FAIL_TIMEOUT_S * 1_000 + 1_000));
      // Should graceful shutdown hang, SIGTERM may not end the process: SIGKILL after 10 s.
      const code = await instances[index]!.stop('SIGTERM', 10_000);
      await startInstance(index);
      console.log(
        `instance ${index ? 'B' : 'A'} stopped (${code}) and started again after ${requests} requests`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    running = false;
    await load;
    console.log(
      `rolling restart: ${requests} page requests, ${failures.length} failed`,
      failures.slice(0, 5),
    );
    if (failures.length > 0) console.log(edge.errors().split('\n').slice(-15).join('\n'));
    expect(failures).toEqual([]);
  });

  it("keeps every route's CSP through the edge, with no violation in Chromium, also from the edge cache", async () => {
    const browser: Browser = await chromium.launch({
      executablePath: CHROME_PATH,
      args: [...CHROME_FLAGS, '--ignore-certificate-errors'],
    });
    try {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const violations: string[] = [];
      await context.exposeBinding('reportViolation', (_source, text: string) =>
        violations.push(text),
      );
      await context.addInitScript(() =>
        document.addEventListener('securitypolicyviolation', (event) =>
          (window as unknown as { reportViolation(text: string): void }).reportViolation(
            `${location.pathname}: ${event.violatedDirective} ${event.blockedURI}`,
          ),
        ),
      );
      const page = await context.newPage();
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      const cacheStatus: Record<string, string> = {};
      // `/` and `/contact-us` twice: the second `/` comes from the edge cache, `/contact-us` never.
      for (const pathname of [...canonicalPaths, '/', '/contact-us']) {
        const response = await page.goto(edge.url + pathname, { waitUntil: 'load' });
        expect(response?.status(), pathname).toBe(200);
        const headers = await response!.allHeaders();
        expect(
          cspProblems(headers['content-security-policy'] ?? null, await response!.text()),
          pathname,
        ).toEqual([]);
        // Hydrated: the client-side navigation's links work (React ran under the policy).
        await page.waitForFunction(() => document.readyState === 'complete');
        cacheStatus[pathname] = headers['x-cache-status'] ?? '-';
      }
      console.log('edge cache status per route (second / last):', cacheStatus);
      expect(cacheStatus['/']).toBe('HIT');
      expect(cacheStatus['/contact-us']).not.toBe('HIT');
      expect(violations).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});

/** The stored enquiries (any verdict) of the visitors of `enquiryValues(n, tag)`. */
function leadsOf(tag: string) {
  return database.db
    .select({ reference: leads.reference, email: leads.email })
    .from(leads)
    .where(like(leads.email, `${tag}.%@hospital.example`));
}

/**
 * How many requests of `accessLog` (deploy/nginx.conf's format) the edge sent to a second
 * instance after the first failed (two addresses in `upstream=`): POSTs and the rest.
 */
function retriedRequests(accessLog: string): { posts: number; others: number } {
  const retried = accessLog
    .split('\n')
    .flatMap((line) => /"(\w+) [^"]*".* upstream=\S+, /.exec(line)?.slice(1, 2) ?? []);
  const posts = retried.filter((method) => method === 'POST').length;
  return { posts, others: retried.length - posts };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many received mails name `reference` in their subject. */
function mailsFor(reference: string): number {
  return smtp.received.filter((mail) => mail.parsed.subject?.includes(reference)).length;
}
