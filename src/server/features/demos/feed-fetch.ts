import 'server-only';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Interval } from '@/lib/demo/slots';
import type { FeedParseRequest, FeedParseResult } from './types';

/**
 * Fetching and parsing one host's busy feed, as untrusted input: over `https:` only (redirects
 * too), its size capped, its iCalendar parsed in a worker thread with caps on time and memory.
 * The cache and the refresher that use it are in feeds.ts.
 */

/** Heap of a parse worker (MB): a 5 MB feed parses in far less; a runaway expansion stops here. */
const FEED_PARSE_HEAP_MB = 256;
/** Redirects followed per fetch, each to an `https:` address only. */
const FEED_MAX_REDIRECTS = 5;

/** Why a fetch gave no copy, logged with `demo.feed_failed` (never the URL: it is a secret). */
export class FeedError extends Error {
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
export function feedFacts(url: string): { feedHost: string; feedId: string } {
  return {
    feedHost: new URL(url).host,
    feedId: createHash('sha256').update(url).digest('hex').slice(0, 8),
  };
}

/** The body of `response` as UTF-8, refusing more than `maxBytes` (declared or actually sent). */
export async function readCapped(response: Response, maxBytes: number): Promise<string> {
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
export async function fetchHttps(url: string, signal: AbortSignal): Promise<Response> {
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
export function parseInWorker(
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
