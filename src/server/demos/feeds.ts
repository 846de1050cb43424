import 'server-only';
import { createHash } from 'node:crypto';
import { busyIntervals } from '@/lib/demo/busy';
import type { Interval } from '@/lib/demo/slots';
import type { Env } from '../env';
import { errorFacts, log } from '../log';
import { isBookingOn } from './rules';
import type { BusyFeeds } from './types';

/**
 * The hosts' busy times from their iCalendar feeds (`busyFeeds` of `DEMO_HOSTS`), fetched
 * in the background and kept in memory by each instance (no table: every instance of a
 * scale-out fetches on its own). A feed's last good copy holds `DEMO_FEED_MAX_AGE_HOURS`; a host
 * with a feed that never answered, or whose copy is older, offers nothing.
 */

/** How often every feed is fetched again (ms): 10 minutes (docs/demo-booking.md). */
export const FEED_REFRESH_MS = 10 * 60_000;
/** How long one fetch may take, body included (ms). */
const FEED_TIMEOUT_MS = 10_000;
/** Largest feed read (bytes): 5 MB, years of a busy calendar. */
const FEED_MAX_BYTES = 5 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60_000;

/** An in-memory cache of feeds, refreshed by whoever owns it (the refresher, or a test). */
export type FeedCache = BusyFeeds & {
  /** Fetches every feed once, now (`now` in ms, the clock of the copies); never throws. */
  refresh(now?: number): Promise<void>;
  /** Aborts the fetches in progress (shutdown). */
  close(): void;
};

export type FeedCacheOptions = {
  /** The feed URLs (duplicates are fetched once). */
  urls: readonly string[];
  /** `DEMO_BOOKING_DAYS`: the copies cover the booking window. */
  bookingDays: number;
  /** `DEMO_FEED_MAX_AGE_HOURS` in ms: how long a last good copy holds. */
  maxAgeMs: number;
  /** `DEMO_TIMEZONE`: the zone of all-day events of a calendar that names none. */
  timeZone: string;
  /** Per-fetch timeout (ms); default 10 s. */
  timeoutMs?: number;
  /** Body size cap (bytes); default 5 MB. */
  maxBytes?: number;
};

/** Why a fetch gave no copy, logged with `demo.feed_failed` (never the URL: it is a secret). */
class FeedError extends Error {
  constructor(
    readonly reason: 'http_status' | 'too_large' | 'invalid_calendar',
    readonly status?: number,
  ) {
    super(reason);
    this.name = 'FeedError';
  }
}

/** A feed URL as logs may show it: its host and a short hash telling feeds of one host apart. */
function feedFacts(url: string): { feedHost: string; feedId: string } {
  return {
    feedHost: new URL(url).host,
    feedId: createHash('sha256').update(url).digest('hex').slice(0, 8),
  };
}

/** The body of `response` as UTF-8, refusing more than `maxBytes` (declared or actually sent). */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel();
    throw new FeedError('too_large');
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new FeedError('too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

type FeedState = { copy?: { busy: Interval[]; fetchedAt: number }; failing?: boolean };

/**
 * A feed cache over `options.urls`; nothing is fetched until `refresh`. Each refresh fetches every
 * distinct URL (GET, redirects followed up to fetch's own limit of 20, `timeoutMs`, `maxBytes`),
 * parses it with busyIntervals over [now - 1 day, now + bookingDays + 1 days + max age] (so a copy
 * still covers the booking window at the end of its allowed age) and keeps it as the last good
 * copy with its fetch time. A failure (network, timeout, non-2xx, too large, not an iCalendar)
 * keeps the previous copy; it is logged as `demo.feed_failed` (warn), and the next success as
 * `demo.feed_recovered` (info), once per transition.
 */
export function createFeedCache(options: FeedCacheOptions): FeedCache {
  const { bookingDays, maxAgeMs, timeZone } = options;
  const timeoutMs = options.timeoutMs ?? FEED_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? FEED_MAX_BYTES;
  const feeds = new Map<string, FeedState>(options.urls.map((url) => [url, {}]));
  const closing = new AbortController();
  let refreshing: Promise<void> | undefined;

  async function fetchFeed(url: string, state: FeedState, now: number): Promise<void> {
    try {
      const response = await fetch(url, {
        headers: { accept: 'text/calendar, */*;q=0.5' },
        redirect: 'follow',
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), closing.signal]),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new FeedError('http_status', response.status);
      }
      const text = await readCapped(response, maxBytes);
      const window = { start: now - DAY_MS, end: now + (bookingDays + 1) * DAY_MS + maxAgeMs };
      let busy: Interval[];
      try {
        busy = busyIntervals(text, window, timeZone);
      } catch {
        throw new FeedError('invalid_calendar');
      }
      state.copy = { busy, fetchedAt: now };
      if (state.failing) log.info({ event: 'demo.feed_recovered', ...feedFacts(url) });
      state.failing = false;
    } catch (error) {
      const wasFailing = state.failing;
      state.failing = true;
      if (wasFailing || closing.signal.aborted) return;
      const cause = error instanceof Error && error.cause ? errorFacts(error.cause) : undefined;
      log.warn({
        event: 'demo.feed_failed',
        ...feedFacts(url),
        ...(error instanceof FeedError
          ? { reason: error.reason, status: error.status }
          : { reason: 'fetch', error: errorFacts(error), cause }),
        lastGoodAt: state.copy ? new Date(state.copy.fetchedAt).toISOString() : null,
      });
    }
  }

  return {
    refresh(now = Date.now()) {
      refreshing ??= Promise.all([...feeds].map(([url, state]) => fetchFeed(url, state, now))).then(
        () => {
          refreshing = undefined;
        },
      );
      return refreshing;
    },
    busyOf(urls, now) {
      const busy: Interval[] = [];
      for (const url of urls) {
        const copy = feeds.get(url)?.copy;
        if (!copy || now - copy.fetchedAt > maxAgeMs) return null;
        busy.push(...copy.busy);
      }
      return busy;
    },
    close() {
      closing.abort();
    },
  };
}

type Refresher = { cache: FeedCache; timer: NodeJS.Timeout };
const holder = globalThis as typeof globalThis & { __nirmayaDemoFeeds?: Refresher };

/** Before the refresher runs (or without feeds) nothing is known of a feed. */
const unknownFeeds: BusyFeeds = { busyOf: (urls) => (urls.length > 0 ? null : []) };

/**
 * Starts this process's feed refresher once (kept on `globalThis` across module reloads) when
 * booking is on and some host has `busyFeeds`: fetches every feed now and then every
 * FEED_REFRESH_MS. No-op otherwise.
 */
export function startFeedRefresher(env: Env): void {
  if (holder.__nirmayaDemoFeeds || !isBookingOn(env)) return;
  const urls = [...new Set(env.DEMO_HOSTS.flatMap((host) => host.busyFeeds))];
  if (urls.length === 0) return;
  const cache = createFeedCache({
    urls,
    bookingDays: env.DEMO_BOOKING_DAYS,
    maxAgeMs: env.DEMO_FEED_MAX_AGE_HOURS * 60 * 60_000,
    timeZone: env.DEMO_TIMEZONE,
  });
  const timer = setInterval(() => void cache.refresh(), FEED_REFRESH_MS);
  timer.unref();
  holder.__nirmayaDemoFeeds = { cache, timer };
  void cache.refresh();
  log.info({ event: 'demo.feeds_started', feeds: urls.length, refreshMs: FEED_REFRESH_MS });
}

/** Stops the refresher's timer and aborts its fetches (graceful shutdown). No-op when none runs. */
export function stopFeedRefresher(): void {
  const refresher = holder.__nirmayaDemoFeeds;
  if (!refresher) return;
  clearInterval(refresher.timer);
  refresher.cache.close();
  delete holder.__nirmayaDemoFeeds;
}

/** This process's busy feeds (the refresher's cache); before it starts every feed is unknown. */
export function processFeeds(): BusyFeeds {
  return holder.__nirmayaDemoFeeds?.cache ?? unknownFeeds;
}
