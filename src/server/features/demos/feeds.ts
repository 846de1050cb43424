import 'server-only';
import { MAX_FEED_INSTANCES, mergeIntervals } from '@/lib/demo/busy';
import type { Interval } from '@/lib/demo/slots';
import type { DemoSiteEnv as Env } from './env';
import { errorFacts, log } from '../../platform/log';
import { isBookingOn } from './rules';
import type { BusyFeeds } from './types';
import { FeedError, feedFacts, fetchHttps, parseInWorker, readCapped } from './feed-fetch';

/**
 * The hosts' busy times from their iCalendar feeds (`busyFeeds` of `DEMO_HOSTS`), fetched
 * in the background and kept in memory by each instance (no table: every instance of a
 * scale-out fetches on its own). A feed's last good copy holds `DEMO_FEED_MAX_AGE_HOURS`; a host
 * with a feed that never answered, or whose copy is older, offers nothing.
 *
 * Anyone can put an event into a host's feed (an invitation sent to the host's public address), so
 * a feed is untrusted input: fetched over `https:` only, parsed in a worker thread (never on the
 * event loop that answers pages) with caps on its instances, its parse time and its memory; a feed
 * over a cap counts as a failed fetch, for its host only.
 */

/** How often every feed is fetched again (ms): 10 minutes (docs/demo-booking.md). */
export const FEED_REFRESH_MS = 10 * 60_000;
/** How long one fetch may take, body included (ms). */
const FEED_TIMEOUT_MS = 10_000;
/** Largest feed read (bytes): 5 MB, years of a busy calendar. */
const FEED_MAX_BYTES = 5 * 1024 * 1024;
/** How long parsing one feed may take (ms) before its worker is terminated: 5 s. */
const FEED_PARSE_TIMEOUT_MS = 5_000;
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
  /** Parse time cap per feed (ms); default 5 s. */
  parseTimeoutMs?: number;
  /** Most busy instances per feed in the window; default MAX_FEED_INSTANCES (5,000). */
  maxInstances?: number;
};

type FeedState = { copy?: { busy: Interval[]; fetchedAt: number }; failing?: boolean };

/**
 * A feed cache over `options.urls`; nothing is fetched until `refresh`. Each refresh fetches every
 * distinct URL (GET over `https:` only, up to FEED_MAX_REDIRECTS redirects, each to `https:` only,
 * `timeoutMs`, `maxBytes`), parses it in a worker thread (parseInWorker: one feed at a time,
 * `parseTimeoutMs`, `maxInstances`) over [now - 1 day, now + bookingDays + 1 days + max age] (so a
 * copy still covers the booking window at the end of its allowed age) and keeps it as the last good
 * copy with its fetch time. A failure (not `https:`, network, timeout, non-2xx, too large, not an
 * iCalendar, over a parse cap) keeps the previous copy; it is logged as `demo.feed_failed` (warn,
 * with its `reason`, never the URL), and the next success as `demo.feed_recovered` (info), once per
 * transition.
 */
export function createFeedCache(options: FeedCacheOptions): FeedCache {
  const { bookingDays, maxAgeMs, timeZone } = options;
  const timeoutMs = options.timeoutMs ?? FEED_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? FEED_MAX_BYTES;
  const parseTimeoutMs = options.parseTimeoutMs ?? FEED_PARSE_TIMEOUT_MS;
  const maxInstances = options.maxInstances ?? MAX_FEED_INSTANCES;
  const feeds = new Map<string, FeedState>(options.urls.map((url) => [url, {}]));
  const closing = new AbortController();
  let refreshing: Promise<void> | undefined;
  /** The parse queue: one worker at a time, so that feeds never take every core from the server. */
  let parsing: Promise<unknown> = Promise.resolve();

  async function fetchFeed(url: string, state: FeedState, now: number): Promise<void> {
    try {
      const response = await fetchHttps(
        url,
        AbortSignal.any([AbortSignal.timeout(timeoutMs), closing.signal]),
      );
      if (!response.ok) {
        await response.body?.cancel();
        throw new FeedError('http_status', response.status);
      }
      const text = await readCapped(response, maxBytes);
      const window = { start: now - DAY_MS, end: now + (bookingDays + 1) * DAY_MS + maxAgeMs };
      const parsed = parsing.then(() =>
        parseInWorker(
          { ics: text, window, timeZone, maxInstances },
          parseTimeoutMs,
          closing.signal,
        ),
      );
      parsing = parsed.catch(() => undefined);
      const busy = await parsed;
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
          ? {
              reason: error.reason,
              status: error.status,
              cause,
              limit:
                error.reason === 'too_many_instances'
                  ? maxInstances
                  : error.reason === 'parse_timeout'
                    ? parseTimeoutMs
                    : undefined,
            }
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
      const copies: Interval[][] = [];
      for (const url of urls) {
        const copy = feeds.get(url)?.copy;
        if (!copy || now - copy.fetchedAt > maxAgeMs) return null;
        copies.push(copy.busy);
      }
      return mergeIntervals(copies);
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
