import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@/server/test-support/enquiry';
import { enquiryValues, postEnquiry } from './support/contact-form';
import { logLines, startProductionServer, type ProductionServer } from './support/next-server';

const HOUR = 60 * 60_000;
const SECRET_PATH = '/private-7c3e9a/basic.ics';

/**
 * The host's calendar, served by a real HTTP server: busy from an hour ago to 12 hours ahead
 * (written when the feed is fetched), in UTC as Google Calendar writes it.
 */
function busyCalendar(busyUntil: number): string {
  const stamp = (at: number) => new Date(at).toISOString().replace(/[-:]|\.\d{3}/g, '');
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Nirmaya tests//EN',
    'BEGIN:VEVENT',
    'UID:conference@test',
    `DTSTAMP:${stamp(Date.now())}`,
    `DTSTART:${stamp(Date.now() - HOUR)}`,
    `DTEND:${stamp(busyUntil)}`,
    'SUMMARY:Health IT conference',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

// Issue 16, item 3: the standalone server reads a host's busy feed in the background, offers no
// time within its busy event, never logs the feed's secret address, and stops on SIGTERM.
describe('demo busy feeds in the production build (issue 16)', () => {
  let feedServer: Server;
  let server: ProductionServer | undefined;
  let dataDir: string;
  let busyUntil = 0;
  const fetches: number[] = [];
  beforeAll(async () => {
    feedServer = createServer((request, response) => {
      if (request.url !== SECRET_PATH) return void response.writeHead(404).end();
      fetches.push(Date.now());
      busyUntil = Date.now() + 12 * HOUR;
      response.writeHead(200, { 'content-type': 'text/calendar' }).end(busyCalendar(busyUntil));
    });
    await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
    const feed = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}${SECRET_PATH}`;
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-feeds-'));
    server = await startProductionServer({
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: undefined,
        SMTP_URL: undefined,
        WEBHOOK_URLS: undefined,
        WEBHOOK_SECRET: undefined,
        // Booking needs the address its e-mailed links point to (http only on localhost).
        SITE_URL: 'http://localhost:3000',
        DEMO_HOSTS: JSON.stringify([
          {
            name: 'Meera Iyer',
            email: 'meera@nirmaya.example',
            meetingUrl: 'https://meet.example/meera',
            busyFeeds: [feed],
          },
        ]),
        DEMO_HOURS: 'Mon-Sun 00:00-24:00',
        DEMO_NOTICE_HOURS: '1',
        DEMO_BOOKING_DAYS: '2',
      },
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
    const starts = [
      ...html.matchAll(/<input[^>]*type="radio"[^>]*name="start"[^>]*value="([^"]+)"/g),
    ].map((match) => Date.parse(match[1]!));
    // Slots are 45 min with 15 min of buffer: the first free one starts within an hour and a quarter of the event's end.
    expect(starts.length).toBeGreaterThan(0);
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(busyUntil + 15 * 60_000);
    expect(Math.min(...starts)).toBeLessThanOrEqual(busyUntil + 75 * 60_000);

    const signalled = Date.now();
    const code = await server!.stop('SIGTERM');
    const exitMs = Date.now() - signalled;
    const lines = logLines(server!.output());
    console.log(
      `feed fetched ${fetches.length}x; ${starts.length} times offered, first ${((Math.min(...starts) - busyUntil) / 60_000).toFixed(0)} min after the busy event; SIGTERM exit ${code} in ${exitMs} ms`,
    );
    expect(lines.filter((line) => line.event === 'demo.feeds_started')).toHaveLength(1);
    expect(lines.filter((line) => line.event === 'server.stopped')).toHaveLength(1);
    expect(server!.output()).not.toContain('private-7c3e9a');
    expect(exitMs).toBeLessThan(28_000);
  });
});
