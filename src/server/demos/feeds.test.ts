import '../test-support/quiet-logs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseWeeklyHours } from '@/lib/demo/hours';
import { getEnv } from '../env';
import { log } from '../log';
import { addDemoLead } from '../test-support/demo-lead';
import {
  backends,
  backendTitle,
  openTestDatabase,
  type TestDatabase,
} from '../test-support/databases';
import { until } from '../test-support/enquiry';
import { bookDemo } from './commands/book';
import type { BookingSettings } from './types';
import { freeSlots } from './views/slots';
import { createFeedCache, processFeeds, startFeedRefresher, stopFeedRefresher } from './feeds';

const HOUR = 60 * 60_000;
/** Thursday 5 March 2026, 05:30 IST: offered are Friday and Saturday, 10:00, 11:00 and 12:00 IST. */
const now = Date.parse('2026-03-05T00:00:00Z');
const friday10 = Date.parse('2026-03-06T04:30:00Z');

/** Meera's calendar: busy all Friday morning (10:00-13:00 IST), a free lunch on Saturday. */
const meeraCalendar = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Nirmaya tests//EN',
  'BEGIN:VEVENT',
  'UID:offsite@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;TZID=Asia/Kolkata:20260306T100000',
  'DTEND;TZID=Asia/Kolkata:20260306T130000',
  'SUMMARY:Hospital site visit',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:lunch@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;TZID=Asia/Kolkata:20260307T100000',
  'DTEND;TZID=Asia/Kolkata:20260307T130000',
  'TRANSP:TRANSPARENT',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

/**
 * A real calendar server on an ephemeral loopback port. `/secret-…/meera.ics` answers the feed, or
 * 503 while `down`; `/redirect` sends there; `/login` is an HTML page; `/huge` streams 64 KB without
 * a length; every request is counted by path.
 */
type CalendarServer = { origin: string; down: boolean; hits: Map<string, number>; server: Server };

async function startCalendarServer(): Promise<CalendarServer> {
  const calendars: CalendarServer = {
    origin: '',
    down: false,
    hits: new Map(),
    server: createServer(),
  };
  calendars.server.on('request', (request, response) => {
    const path = request.url ?? '';
    calendars.hits.set(path, (calendars.hits.get(path) ?? 0) + 1);
    if (path === '/secret-5b1f0c/meera.ics') {
      if (calendars.down) response.writeHead(503).end('Service Unavailable');
      else response.writeHead(200, { 'content-type': 'text/calendar' }).end(meeraCalendar);
    } else if (path === '/redirect') {
      response.writeHead(302, { location: '/secret-5b1f0c/meera.ics' }).end();
    } else if (path === '/login') {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><body>Sign in</body></html>');
    } else if (path === '/huge') {
      response.writeHead(200, { 'content-type': 'text/calendar' });
      for (let i = 0; i < 64; i++) response.write('X'.repeat(1024));
      response.end();
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => calendars.server.listen(0, '127.0.0.1', resolve));
  calendars.origin = `http://127.0.0.1:${(calendars.server.address() as AddressInfo).port}`;
  return calendars;
}

/** A loopback URL nobody listens on (a port opened and closed again): a feed that never answers. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/secret-9d2e44/ravi.ics`;
}

let calendars: CalendarServer;
let meeraFeed: string;
let raviFeed: string;
const warn = vi.spyOn(log, 'warn');
const info = vi.spyOn(log, 'info');
/** The log records of `event` so far, as objects. */
const logged = (spy: typeof warn, event: string) =>
  spy.mock.calls
    .map(([record]) => record as unknown as Record<string, unknown>)
    .filter((record) => record.event === event);

beforeAll(async () => {
  calendars = await startCalendarServer();
  meeraFeed = `${calendars.origin}/secret-5b1f0c/meera.ics`;
  raviFeed = await deadUrl();
});
afterAll(async () => {
  await new Promise((resolve) => calendars?.server.close(resolve));
});
afterEach(() => {
  calendars.down = false;
  warn.mockClear();
  info.mockClear();
});

const hosts = (): BookingSettings['hosts'] => [
  {
    name: 'Meera Iyer',
    email: 'meera@nirmaya.example',
    meetingUrl: 'https://meet.example/meera',
    busyFeeds: [meeraFeed],
  },
  {
    name: 'Arjun Sen',
    email: 'arjun@nirmaya.example',
    meetingUrl: 'https://meet.example/arjun',
    busyFeeds: [],
  },
  {
    name: 'Ravi Das',
    email: 'ravi@nirmaya.example',
    meetingUrl: 'https://meet.example/ravi',
    busyFeeds: [raviFeed],
  },
];

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('demo busy feeds', backend), () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
    });
    afterAll(async () => {
      await database?.dispose();
    });

    it('holds a feed’s last good copy for DEMO_FEED_MAX_AGE_HOURS, then drops that host until it answers again', async () => {
      const cache = createFeedCache({
        urls: [meeraFeed, raviFeed],
        bookingDays: 3,
        maxAgeMs: 6 * HOUR,
        timeZone: 'Asia/Kolkata',
        timeoutMs: 5_000,
      });
      const settings: BookingSettings = {
        rules: {
          timeZone: 'Asia/Kolkata',
          hours: parseWeeklyHours('Mon-Sun 10:00-13:00'),
          slotMinutes: 45,
          bufferMinutes: 15,
          noticeHours: 12,
          maxPerDay: 4,
          closedDates: [],
          bookingDays: 3,
        },
        hosts: hosts(),
        reminderHours: 24,
        feeds: cache,
      };
      /** Refreshes at `at` and counts the offered slots, in all and per host. */
      const phase = async (name: string, at: number) => {
        await cache.refresh(at);
        const slots = await freeSlots(database.db, settings, at);
        const count = (email: string) => slots.filter((slot) => slot.hosts.includes(email)).length;
        const figures = {
          slots: slots.length,
          meera: count('meera@nirmaya.example'),
          arjun: count('arjun@nirmaya.example'),
          ravi: count('ravi@nirmaya.example'),
        };
        console.log(
          `[${backend.kind}] ${name}: ${figures.slots} slots; meera ${figures.meera}, arjun ${figures.arjun}, ravi ${figures.ravi}`,
        );
        return { slots, figures };
      };

      const up = await phase('feed up', now);
      // Meera is busy on Friday morning (her transparent Saturday event frees her); Ravi's feed never answered.
      expect(up.figures).toEqual({ slots: 6, meera: 3, arjun: 6, ravi: 0 });
      expect(up.slots.find((slot) => slot.start === friday10)?.hosts).toEqual([
        'arjun@nirmaya.example',
      ]);

      calendars.down = true;
      const held = await phase('feed 503, copy 1 h old', now + HOUR);
      expect(held.figures).toEqual({ slots: 6, meera: 3, arjun: 6, ravi: 0 });
      await phase('feed 503, copy 2 h old', now + 2 * HOUR);

      const stale = await phase('feed 503, copy past 6 h', now + 6 * HOUR + 60_000);
      expect(stale.figures).toEqual({ slots: 6, meera: 0, arjun: 6, ravi: 0 });

      calendars.down = false;
      const back = await phase('feed back', now + 7 * HOUR);
      expect(back.figures).toEqual({ slots: 6, meera: 3, arjun: 6, ravi: 0 });

      // Booking re-checks with the same data: Friday 10:00 goes to Arjun although Meera comes first.
      const booked = await bookDemo(
        database.db,
        settings,
        await addDemoLead(database.db, 1),
        friday10,
        now + 7 * HOUR,
      );
      expect(booked.outcome === 'booked' && booked.booking.hostEmail).toBe('arjun@nirmaya.example');

      // One warning and one recovery per transition; Ravi's dead feed warned once in five refreshes.
      const failed = logged(warn, 'demo.feed_failed');
      expect(
        failed.map((record) => [record.feedHost, record.reason, record.status ?? null]),
      ).toEqual([
        [new URL(raviFeed).host, 'fetch', null],
        [new URL(meeraFeed).host, 'http_status', 503],
      ]);
      expect(logged(info, 'demo.feed_recovered')).toHaveLength(1);
      const everything = JSON.stringify([...warn.mock.calls, ...info.mock.calls]);
      expect(everything).not.toContain('secret-');
      cache.close();
    });
  });
}

describe('demo busy feeds: fetching', () => {
  const cacheOf = (urls: string[], maxBytes?: number) =>
    createFeedCache({
      urls,
      bookingDays: 3,
      maxAgeMs: 6 * HOUR,
      timeZone: 'Asia/Kolkata',
      maxBytes,
    });

  it('follows a redirect to the feed', async () => {
    const cache = cacheOf([`${calendars.origin}/redirect`]);
    await cache.refresh(now);
    expect(cache.busyOf([`${calendars.origin}/redirect`], now)).toEqual([
      { start: friday10, end: friday10 + 3 * HOUR },
    ]);
  });

  it.each([
    { path: '/login', reason: 'invalid_calendar' },
    { path: '/huge', reason: 'too_large' },
    { path: '/missing', reason: 'http_status' },
  ])('refuses $path ($reason): the host stays unknown', async ({ path, reason }) => {
    const url = `${calendars.origin}${path}`;
    const cache = cacheOf([url], 32 * 1024);
    await cache.refresh(now);
    expect(cache.busyOf([url], now)).toBeNull();
    expect(logged(warn, 'demo.feed_failed').map((record) => record.reason)).toEqual([reason]);
  });

  it('starts with the server when a host has feeds, and stops', async () => {
    const env = getEnv({
      NODE_ENV: 'test',
      SITE_URL: 'https://www.nirmaya.example',
      DEMO_HOSTS: JSON.stringify(hosts().slice(0, 2)),
      DEMO_FEED_MAX_AGE_HOURS: '6',
    });
    const before = calendars.hits.get('/secret-5b1f0c/meera.ics') ?? 0;
    startFeedRefresher(env);
    try {
      await until(async () => processFeeds().busyOf([meeraFeed], Date.now()) !== null);
      expect(calendars.hits.get('/secret-5b1f0c/meera.ics')).toBe(before + 1);
      expect(processFeeds().busyOf([], Date.now())).toEqual([]);
    } finally {
      stopFeedRefresher();
    }
    expect(processFeeds().busyOf([meeraFeed], Date.now())).toBeNull();
  });
});
