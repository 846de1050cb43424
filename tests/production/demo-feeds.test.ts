import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@test/enquiry';
import { startHttpsServer, testCertificate } from '@test/https';
import { enquiryValues, loadForm, postEnquiry, submitForm } from '@test/contact-form';
import { offeredStarts } from '@test/demo-booking';
import { httpRequest } from '@test/http';
import { logLines, startProductionServer, type ProductionServer } from '@test/next-server';

const HOUR = 60 * 60_000;
const SECRET_PATH = '/private-7c3e9a/basic.ics';
const HOSTILE_PATH = '/private-d41f08/basic.ics';

const stamp = (at: number) => new Date(at).toISOString().replace(/[-:]|\.\d{3}/g, '');

/** A calendar of `events` (each the lines between BEGIN:VEVENT and END:VEVENT), CRLF as sent. */
const calendar = (events: string[][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Nirmaya tests//EN',
    ...events.flatMap((lines) => [
      'BEGIN:VEVENT',
      `DTSTAMP:${stamp(Date.now())}`,
      ...lines,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/**
 * The host's calendar: busy from an hour ago to `busyUntil` (written when the feed is fetched), in
 * UTC as Google Calendar writes it.
 */
const busyCalendar = (busyUntil: number) =>
  calendar([
    [
      'UID:conference@test',
      `DTSTART:${stamp(Date.now() - HOUR)}`,
      `DTEND:${stamp(busyUntil)}`,
      'SUMMARY:Health IT conference',
    ],
  ]);

/**
 * A calendar flooded by an invitation anyone can send to a host's public address: a 30-second
 * event every minute from yesterday on, for ever (about 112,000 instances over the window).
 */
const floodedCalendar = () =>
  calendar([
    [
      'UID:flood@attacker.example',
      `DTSTART:${stamp(Date.now() - 24 * HOUR)}`,
      `DTEND:${stamp(Date.now() - 24 * HOUR + 30_000)}`,
      'RRULE:FREQ=MINUTELY',
      'SUMMARY:Quick sync',
    ],
  ]);

/** The offered start times (ms) of a booking step's HTML (its radio inputs). */
const offeredTimes = (html: string) => offeredStarts(html).map((start) => Date.parse(start));

/** The smallest of `values` (by loop: a spread into Math.min has a size limit). */
const least = (values: number[]) => values.reduce((a, b) => Math.min(a, b), Infinity);

/** The `q` quantile (0..1) of `values` in ms, nearest rank. */
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};

/**
 * A feed server over HTTPS with a throwaway self-signed certificate, and the file that makes the
 * site's server trust it (`NODE_EXTRA_CA_CERTS`, as an operator trusts a private CA; no insecure flag).
 */
async function startFeedServer(
  dir: string,
  listener: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ server: Server; origin: string; caFile: string }> {
  const certificate = await testCertificate();
  const caFile = path.join(dir, 'feed-ca.pem');
  await writeFile(caFile, certificate.cert);
  return { ...(await startHttpsServer(certificate, listener)), caFile };
}

/** The server environment of these tests: PGlite in `dataDir`, no mail, no webhooks, hours all day. */
const serverEnv = (dataDir: string, caFile: string, hosts: object[]) => ({
  DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  SMTP_URL: undefined,
  WEBHOOK_URLS: undefined,
  WEBHOOK_SECRET: undefined,
  NODE_EXTRA_CA_CERTS: caFile,
  // Booking needs the address its e-mailed links point to (http only on localhost).
  SITE_URL: 'http://localhost:3000',
  DEMO_HOSTS: JSON.stringify(hosts),
  DEMO_HOURS: 'Mon-Sun 00:00-24:00',
  DEMO_NOTICE_HOURS: '1',
  DEMO_BOOKING_DAYS: '2',
});

// The standalone server reads a host's busy feed over HTTPS in the background, offers no time
// within its busy event, never logs the feed's secret address, and stops on SIGTERM.
describe('demo busy feeds in the production build', () => {
  let feedServer: Server | undefined;
  let server: ProductionServer | undefined;
  let dataDir: string;
  let busyUntil = 0;
  const fetches: number[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-feeds-'));
    const feeds = await startFeedServer(dataDir, (request, response) => {
      if (request.url !== SECRET_PATH) return void response.writeHead(404).end();
      fetches.push(Date.now());
      busyUntil = Date.now() + 12 * HOUR;
      response.writeHead(200, { 'content-type': 'text/calendar' }).end(busyCalendar(busyUntil));
    });
    feedServer = feeds.server;
    server = await startProductionServer({
      env: serverEnv(dataDir, feeds.caFile, [
        {
          name: 'Meera Iyer',
          email: 'meera@nirmaya.example',
          meetingUrl: 'https://meet.example/meera',
          busyFeeds: [`${feeds.origin}${SECRET_PATH}`],
        },
      ]),
      readyPath: '/api/health',
    });
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await new Promise((resolve) => feedServer?.close(resolve));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('fetches the feed at start, offers no time in its busy event, and stops on SIGTERM', async () => {
    await until(async () => fetches.length > 0, 30_000);
    const { html, accepted } = await postEnquiry(server!.url, enquiryValues(1, 'feeds'));
    expect(accepted).toBe(true);
    const starts = offeredTimes(html);
    // Slots are 45 min with 15 min of buffer: the first free one starts within an hour and a quarter of the event's end.
    expect(starts.length).toBeGreaterThan(0);
    expect(least(starts)).toBeGreaterThanOrEqual(busyUntil + 15 * 60_000);
    expect(least(starts)).toBeLessThanOrEqual(busyUntil + 75 * 60_000);

    const signalled = Date.now();
    const code = await server!.stop('SIGTERM');
    const exitMs = Date.now() - signalled;
    const lines = logLines(server!.output());
    console.log(
      `feed fetched ${fetches.length}x; ${starts.length} times offered, first ${((least(starts) - busyUntil) / 60_000).toFixed(0)} min after the busy event; SIGTERM exit ${code} in ${exitMs} ms`,
    );
    expect(lines.filter((line) => line.event === 'demo.feeds_started')).toHaveLength(1);
    expect(lines.filter((line) => line.event === 'server.stopped')).toHaveLength(1);
    expect(server!.output()).not.toContain('private-7c3e9a');
    expect(exitMs).toBeLessThan(28_000);
  });
});

// A hostile calendar (an unbounded FREQ=MINUTELY invitation in host 1's feed) is parsed in a worker
// thread of the standalone server, refused over its instance cap for host 1 only, while the server
// keeps answering pages and host 2 keeps offering times.
describe('a hostile busy feed in the production build', () => {
  let feedServer: Server | undefined;
  let server: ProductionServer | undefined;
  let dataDir: string;
  let busyUntil = 0;
  const fetched = new Set<string>();
  /** The hostile feed's answer waits for this, so that the test measures while it is parsed. */
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-feeds-hostile-'));
    const feeds = await startFeedServer(dataDir, (request, response) => {
      fetched.add(request.url ?? '');
      if (request.url === SECRET_PATH) {
        busyUntil = Date.now() + 12 * HOUR;
        response.writeHead(200, { 'content-type': 'text/calendar' }).end(busyCalendar(busyUntil));
      } else if (request.url === HOSTILE_PATH) {
        void released.then(() =>
          response.writeHead(200, { 'content-type': 'text/calendar' }).end(floodedCalendar()),
        );
      } else response.writeHead(404).end();
    });
    feedServer = feeds.server;
    server = await startProductionServer({
      env: serverEnv(dataDir, feeds.caFile, [
        {
          name: 'Meera Iyer',
          email: 'meera@nirmaya.example',
          meetingUrl: 'https://meet.example/meera',
          busyFeeds: [`${feeds.origin}${HOSTILE_PATH}`],
        },
        {
          name: 'Arjun Sen',
          email: 'arjun@nirmaya.example',
          meetingUrl: 'https://meet.example/arjun',
          busyFeeds: [`${feeds.origin}${SECRET_PATH}`],
        },
      ]),
      readyPath: '/api/health',
    });
  });
  afterAll(async () => {
    release?.();
    await server?.stop('SIGKILL');
    await new Promise((resolve) => feedServer?.close(resolve));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps answering pages while the flooded feed is parsed, refuses it over its cap, and books with host 2’s times only', async () => {
    await until(async () => fetched.has(SECRET_PATH) && fetched.has(HOSTILE_PATH), 30_000);
    const get = async () => {
      const started = performance.now();
      const response = await httpRequest(`${server!.url}/`, { timeoutMs: 10_000 });
      expect(response.status).toBe(200);
      return performance.now() - started;
    };
    const refused = () =>
      logLines(server!.output()).find(
        (line) => line.event === 'demo.feed_failed' && line.reason === 'too_many_instances',
      );
    const before: number[] = [];
    for (let i = 0; i < 10; i++) before.push(await get());

    // Sequential GETs from the moment the flooded feed is answered until its refusal is logged,
    // and on to at least 50.
    release();
    const releasedAt = performance.now();
    const during: number[] = [];
    let refusedAfterMs: number | undefined;
    let duringParse: number[] = [];
    while (during.length < 50 || refusedAfterMs === undefined) {
      during.push(await get());
      if (refusedAfterMs === undefined && refused()) {
        refusedAfterMs = performance.now() - releasedAt;
        duringParse = [...during];
      }
      if (performance.now() - releasedAt > 60_000) break;
    }

    const form = await loadForm(server!.url);
    const stepStarted = performance.now();
    const step = await submitForm(server!.url, form, enquiryValues(2, 'hostile-feed'));
    const stepMs = performance.now() - stepStarted;
    const starts = offeredTimes(step.html);

    const figures = (values: number[]) =>
      `p50 ${quantile(values, 0.5).toFixed(0)} ms, p99 ${quantile(values, 0.99).toFixed(0)} ms, max ${Math.round(values.reduce((a, b) => Math.max(a, b), 0))} ms (${values.length} GETs)`;
    console.log(
      [
        `GET / before the flooded feed: ${figures(before)}`,
        `GET / from its answer until its refusal was logged (${refusedAfterMs?.toFixed(0)} ms): ${figures(duringParse)}`,
        `GET / over the whole measurement: ${figures(during)}`,
        `booking step in ${stepMs.toFixed(0)} ms with ${starts.length} times, the first ${((least(starts) - busyUntil) / 60_000).toFixed(0)} min after host 2's busy event`,
      ].join('\n'),
    );

    const failure = refused();
    expect(failure).toMatchObject({ reason: 'too_many_instances', limit: 5_000 });
    expect(duringParse.length).toBeGreaterThan(0);
    expect(quantile(duringParse, 0.99)).toBeLessThan(500);
    expect(quantile(during, 0.99)).toBeLessThan(500);
    expect(step.accepted).toBe(true);
    expect(stepMs).toBeLessThan(5_000);
    // Host 1 offers nothing (its feed is refused); host 2 is busy for 12 hours: every time offered
    // starts after that, so all are host 2's.
    expect(starts.length).toBeGreaterThan(0);
    expect(least(starts)).toBeGreaterThanOrEqual(busyUntil + 15 * 60_000);
    expect(server!.output()).not.toContain('private-d41f08');
    expect(server!.output()).not.toContain('private-7c3e9a');
  });
});
