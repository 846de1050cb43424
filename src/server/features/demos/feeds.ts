import 'server-only';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { MAX_FEED_INSTANCES, mergeIntervals } from '@/lib/demo/busy';
import type { Interval } from '@/lib/demo/slots';
import type { DemoSiteEnv as Env } from './env';
import { errorFacts, log } from '../../platform/log';
import { isBookingOn } from './rules';
import type { BusyFeeds, FeedParseRequest, FeedParseResult } from './types';

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
/** Heap of a parse worker (MB): a 5 MB feed parses in far less; a runaway expansion stops here. */
const FEED_PARSE_HEAP_MB = 256;
/** Redirects followed per fetch, each to an `https:` address only. */
const FEED_MAX_REDIRECTS = 5;
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

/** Why a fetch gave no copy, logged with `demo.feed_failed` (never the URL: it is a secret). */
class FeedError extends Error {
  constructor(
    readonly reason:
      | 'insecure_url'
      | 'too_many_redirects'
      | 'http_status'
      | 'too_large'
      | 'invalid_calendar'
      | 'too_many_instances'
      | 'parse_timeout'
      | 'parse_failed',
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(reason, options);
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

/**
 * GETs `url`, following up to FEED_MAX_REDIRECTS redirects, each only to an `https:` address (a feed's
 * secret must never travel in clear text, nor a fetch be steered to another scheme).
 * @returns the final response (any status; its body unread)
 * @throws FeedError `insecure_url` for a non-`https:` address or redirect target,
 * `too_many_redirects`; fetch's own errors (network, timeout, abort)
 */
async function fetchHttps(url: string, signal: AbortSignal): Promise<Response> {
  let target = new URL(url);
  for (let hops = 0; ; hops++) {
    if (target.protocol !== 'https:') throw new FeedError('insecure_url');
    const response = await fetch(target, {
      headers: { accept: 'text/calendar, */*;q=0.5' },
      redirect: 'manual',
      signal,
    });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel();
    if (hops === FEED_MAX_REDIRECTS) throw new FeedError('too_many_redirects');
    target = new URL(location, target);
  }
}

/**
 * The merged busy intervals of one feed's text, computed by busyIntervals in a worker thread
 * (feed-worker.ts) so that the event loop keeps answering requests meanwhile. The worker is
 * terminated after `timeoutMs`, or when `signal` aborts; its heap is capped at FEED_PARSE_HEAP_MB.
 * @throws FeedError `too_many_instances` (more than `request.maxInstances` in the window),
 * `invalid_calendar`, `parse_timeout`, or `parse_failed` (the worker died, e.g. out of memory)
 */
function parseInWorker(
  request: FeedParseRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Interval[]> {
  return new Promise((resolve, reject) => {
    // Next.js bundles the entry as its own chunk and resolves it from the calling chunk's directory.
    const worker = new Worker(new URL('./feed-worker.ts', import.meta.url), {
      workerData: request,
      resourceLimits: { maxOldGenerationSizeMb: FEED_PARSE_HEAP_MB },
      // Outside Next.js (Vitest, tsx scripts) the entry is this folder's TypeScript source, which
      // Node 20 runs only through tsx's require hook; Next.js sets NEXT_RUNTIME and bundles it.
      execArgv: process.env.NEXT_RUNTIME ? undefined : ['--require', 'tsx/cjs'],
    });
    worker.unref();
    let settled = false;
    const settle = (error: FeedError | null, busy?: Interval[]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (error) reject(error);
      else resolve(busy!);
    };
    const onAbort = () => settle(new FeedError('parse_failed'));
    const timer = setTimeout(() => settle(new FeedError('parse_timeout')), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: FeedParseResult) =>
      result.ok ? settle(null, result.busy) : settle(new FeedError(result.reason)),
    );
    worker.once('error', (error) =>
      settle(new FeedError('parse_failed', undefined, { cause: error })),
    );
    worker.once('exit', () => settle(new FeedError('parse_failed')));
  });
}

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
