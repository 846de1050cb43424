import '@test/quiet-logs';
import { createServer, type AddressInfo } from 'node:net';
import type { Server } from 'node:https';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseWeeklyHours } from '@/lib/demo/hours';
import { getDemoEnv as getEnv } from './env';
import { log } from '../../platform/log';
import { addDemoLead } from '@test/demo-lead';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { until } from '@test/enquiry';
import { runCertificate, startHttpsServer } from '@test/https';
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

/** A calendar of one event at `rule` from 1 March 2026, 30 s long (an invitation anyone can send). */
const floodCalendar = (rule: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Nirmaya tests//EN',
    'BEGIN:VEVENT',
    'UID:flood@test',
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20260301T000000Z',
    'DTEND:20260301T000030Z',
    `RRULE:${rule}`,
    'SUMMARY:Quick sync',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/** Every minute, for ever: past the recurrence engine's iteration limit over the window. */
const minutely = floodCalendar('FREQ=MINUTELY');
/** 86,400 instances a day, in few iterations: expanding it outlasts any parse time cap. */
const everySecond = floodCalendar(
  `FREQ=DAILY;BYHOUR=${[...Array(24).keys()].join(',')};BYMINUTE=${[...Array(60).keys()].join(',')};BYSECOND=${[...Array(60).keys()].join(',')}`,
);

/**
 * A real calendar server over HTTPS (the run's test certificate) on an ephemeral loopback port.
 * `/secret-…/meera.ics` answers the feed, or 503 while `down`; `/redirect` sends there;
 * `/redirect-http` sends to an `http:` address; `/login` is an HTML page; `/huge` streams 64 KB
 * without a length; `/minutely` and `/every-second` are flooded calendars; every request is
 * counted by path.
 */
type CalendarServer = {
  origin: string;
  down: boolean;
  /** Meera's feed answers the minutely flood instead of her calendar. */
  flooded: boolean;
  hits: Map<string, number>;
  server: Server;
};

async function startCalendarServer(): Promise<CalendarServer> {
  const { server, origin } = await startHttpsServer(runCertificate());
  const calendars: CalendarServer = {
    origin,
    down: false,
    flooded: false,
    hits: new Map(),
    server,
  };
  calendars.server.on('request', (request, response) => {
    const path = request.url ?? '';
    calendars.hits.set(path, (calendars.hits.get(path) ?? 0) + 1);
    if (path === '/secret-5b1f0c/meera.ics') {
      if (calendars.down) response.writeHead(503).end('Service Unavailable');
      else
        response
          .writeHead(200, { 'content-type': 'text/calendar' })
          .end(calendars.flooded ? minutely : meeraCalendar);
    } else if (path === '/redirect') {
      response.writeHead(302, { location: '/secret-5b1f0c/meera.ics' }).end();
    } else if (path === '/redirect-http') {
      const insecure = new URL('/secret-5b1f0c/meera.ics', calendars.origin);
      insecure.protocol = 'http:';
      response.writeHead(302, { location: insecure.href }).end();
    } else if (path === '/minutely' || path === '/every-second') {
      response
        .writeHead(200, { 'content-type': 'text/calendar' })
        .end(path === '/minutely' ? minutely : everySecond);
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
  return calendars;
}

/** A loopback URL nobody listens on (a port opened and closed again): a feed that never answers. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `https://127.0.0.1:${port}/secret-9d2e44/ravi.ics`;
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
  calendars.flooded = false;
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
  const cacheOf = (urls: string[], maxBytes?: number, parseTimeoutMs?: number) =>
    createFeedCache({
      urls,
      bookingDays: 3,
      maxAgeMs: 6 * HOUR,
      timeZone: 'Asia/Kolkata',
      maxBytes,
      parseTimeoutMs,
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
    { path: '/redirect-http', reason: 'insecure_url' },
    { path: '/minutely', reason: 'too_many_instances' },
  ])('refuses $path ($reason): the host stays unknown', async ({ path, reason }) => {
    const url = `${calendars.origin}${path}`;
    const cache = cacheOf([url], 32 * 1024);
    await cache.refresh(now);
    expect(cache.busyOf([url], now)).toBeNull();
    expect(logged(warn, 'demo.feed_failed').map((record) => record.reason)).toEqual([reason]);
  });

  it('refuses an http: feed without fetching it', async () => {
    const url = `${calendars.origin.replace('https:', 'http:')}/secret-5b1f0c/meera.ics`;
    const before = calendars.hits.get('/secret-5b1f0c/meera.ics') ?? 0;
    const cache = cacheOf([url]);
    await cache.refresh(now);
    expect(cache.busyOf([url], now)).toBeNull();
    expect(calendars.hits.get('/secret-5b1f0c/meera.ics') ?? 0).toBe(before);
    expect(logged(warn, 'demo.feed_failed').map((record) => record.reason)).toEqual([
      'insecure_url',
    ]);
  });

  it('keeps the last good copy of a feed that turns hostile (over its instance cap), then drops it', async () => {
    const cache = cacheOf([meeraFeed]);
    await cache.refresh(now);
    calendars.flooded = true;
    await cache.refresh(now + HOUR);
    expect(cache.busyOf([meeraFeed], now + HOUR)).toEqual([
      { start: friday10, end: friday10 + 3 * HOUR },
    ]);
    expect(cache.busyOf([meeraFeed], now + 6 * HOUR + 1)).toBeNull();
    expect(logged(warn, 'demo.feed_failed').map((record) => [record.reason, record.limit])).toEqual(
      [['too_many_instances', 5_000]],
    );
  });

  it('parses off the event loop: a feed that outlasts its parse time is dropped, the event loop stays free, the other feed is read', async () => {
    const flood = `${calendars.origin}/every-second`;
    const cache = cacheOf([flood, meeraFeed], undefined, 2_000);
    // The event loop's lag, sampled every 10 ms while the feeds are fetched and parsed.
    let worstLagMs = 0;
    let last = performance.now();
    const sampler = setInterval(() => {
      const at = performance.now();
      worstLagMs = Math.max(worstLagMs, at - last - 10);
      last = at;
    }, 10);
    const started = performance.now();
    await cache.refresh(now);
    const refreshMs = performance.now() - started;
    clearInterval(sampler);
    console.log(
      `flooded feed refused after ${Math.round(refreshMs)} ms (parse cap 2000 ms); worst event-loop lag meanwhile ${Math.round(worstLagMs)} ms`,
    );
    expect(cache.busyOf([flood], now)).toBeNull();
    expect(cache.busyOf([meeraFeed], now)).toEqual([{ start: friday10, end: friday10 + 3 * HOUR }]);
    expect(refreshMs).toBeLessThan(10_000);
    // Parsed on the loop, this feed would block it for the whole parse cap (2 s), then some.
    expect(worstLagMs).toBeLessThan(500);
    const failed = logged(warn, 'demo.feed_failed');
    expect(failed.map((record) => [record.reason, record.limit])).toEqual([
      ['parse_timeout', 2_000],
    ]);
    expect(JSON.stringify(failed)).not.toContain('every-second');
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
