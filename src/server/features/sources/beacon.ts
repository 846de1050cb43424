import 'server-only';
import { isbot } from 'isbot';
import { localDate } from '@/lib/demo/slots';
import {
  cleanPath,
  deviceClassOf,
  readVisitSource,
  sourceOfLanding,
  type VisitSource,
} from '@/lib/visit-source';
import type { Db } from '../../platform/db';
import type { TrustProxy } from '@/lib/http/trust-proxy';
import { clientAddress } from '../../platform/http/client-address';
import { isSameSite, originFacts } from '../../platform/http/same-site';
import { VisitCollector } from './collect';

/** The largest beacon body read, in bytes (1 KB). */
export const BEACON_MAX_BYTES = 1_024;

/** What a beacon is judged with. */
export type BeaconContext = {
  db: Db;
  trust: TrustProxy;
  /** SITE_URL's origin, besides the request's own host (siteOrigins). */
  allowedOrigins: readonly string[];
  timeZone: string;
  /** The site's pages (its canonical paths): a view of any other path is not counted. */
  knownPaths: ReadonlySet<string>;
  now?: Date;
  /** Where to count (default: the process's collector). */
  collector?: VisitCollector;
};

/** Why a request was not counted, or `counted`. */
export type BeaconVerdict =
  | 'counted'
  | 'head'
  | 'bot'
  | 'prefetch'
  | 'opted-out'
  | 'cross-site'
  | 'malformed'
  | 'unknown-path'
  | 'limited';

/**
 * Why a request must not be counted, whatever its body: HEAD, a bot's user agent (isbot, or none),
 * a prefetch (`Sec-Purpose`/`Purpose: prefetch`), or the visitor's opt-out (Do-Not-Track `DNT: 1`
 * or Global Privacy Control `Sec-GPC: 1`: such a visit is not counted at all, not even without
 * its source); null when it may be.
 */
export function refusal(method: string, headers: Headers): BeaconVerdict | null {
  if (method === 'HEAD') return 'head';
  const agent = headers.get('user-agent');
  if (!agent || isbot(agent)) return 'bot';
  if (/prefetch/i.test(`${headers.get('sec-purpose') ?? ''} ${headers.get('purpose') ?? ''}`))
    return 'prefetch';
  if (headers.get('dnt') === '1' || headers.get('sec-gpc') === '1') return 'opted-out';
  return null;
}

/**
 * Reads a beacon (POST, JSON `{"path", "landingPage", "referrerHost", "utmSource", "utmMedium",
 * "utmCampaign"}` of at most BEACON_MAX_BYTES, sent by src/lib/visit-beacon.ts) or a
 * page seen without JavaScript (GET from the page's `<noscript>` image: the page and its UTM tags
 * from the same-origin `Referer`; its own referrer stays unknown). Same-site only: a POST needs
 * an `Origin` of this site (isSameSite), a GET a `Referer` on this host.
 * @returns the view to count, or the verdict why not
 */
export function readBeacon(
  method: string,
  headers: Headers,
  body: string | null,
  context: Pick<BeaconContext, 'trust' | 'allowedOrigins'>,
): { path: string; source: VisitSource } | BeaconVerdict {
  const refused = refusal(method, headers);
  if (refused) return refused;
  const facts = originFacts(headers, context.trust);
  if (method === 'GET') {
    const referer = headers.get('referer');
    if (!referer || !URL.canParse(referer)) return 'cross-site';
    const page = new URL(referer);
    const hosts = [facts.host, ...context.allowedOrigins.map((origin) => new URL(origin).host)];
    if (!hosts.includes(page.host)) return 'cross-site';
    const source = sourceOfLanding(page, null);
    return source.landingPage ? { path: source.landingPage, source } : 'malformed';
  }
  if (method !== 'POST') return 'malformed';
  if (!isSameSite(facts, context.allowedOrigins)) return 'cross-site';
  let sent: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(body ?? '');
    if (!parsed || typeof parsed !== 'object') return 'malformed';
    sent = parsed as Record<string, unknown>;
  } catch {
    return 'malformed';
  }
  const path = cleanPath(sent.path);
  if (!path) return 'malformed';
  return { path, source: readVisitSource((key) => sent[key]) };
}

/** How often the collector writes what it holds (ms): what a crash can lose at most. */
export const FLUSH_INTERVAL_MS = 5_000;

const holder = globalThis as typeof globalThis & { __nirmayaVisits?: VisitCollector };

/**
 * This process's collector (kept on `globalThis`, so the route bundle and the server's start
 * share it), created for `db` on first use, then flushed every FLUSH_INTERVAL_MS (the flush
 * also deletes the salts and visitor hashes of days before today in `timeZone`).
 */
export function collector(db: Db, timeZone: string): VisitCollector {
  if (!holder.__nirmayaVisits) {
    const created = (holder.__nirmayaVisits = new VisitCollector(db));
    setInterval(
      () => void created.flush(localDate(Date.now(), timeZone)),
      FLUSH_INTERVAL_MS,
    ).unref();
  }
  return holder.__nirmayaVisits;
}

/** The collector if one was created (for the shutdown's last flush). */
export function existingCollector(): VisitCollector | undefined {
  return holder.__nirmayaVisits;
}

let lastDay = { minute: Number.NaN, timeZone: '', day: '' };

/**
 * The day of `now` in `timeZone` (localDate), computed once a minute: a day always starts on a
 * whole minute, and building the zoned date for every beacon was a twentieth of its CPU.
 */
function dayOf(now: Date, timeZone: string): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== lastDay.minute || timeZone !== lastDay.timeZone)
    lastDay = { minute, timeZone, day: localDate(now.getTime(), timeZone) };
  return lastDay.day;
}

/**
 * Judges and counts one request to the beacon endpoint (src/app/api/v/route.ts): readBeacon,
 * then a known route only, then the collector (in memory; written every few seconds).
 * @throws on a database error reading the day's salt (the route answers 204 anyway)
 */
export async function countBeacon(
  method: string,
  headers: Headers,
  body: string | null,
  context: BeaconContext,
): Promise<BeaconVerdict> {
  const read = readBeacon(method, headers, body, context);
  if (typeof read === 'string') return read;
  if (!context.knownPaths.has(read.path)) return 'unknown-path';
  const now = context.now ?? new Date();
  const counted = await (context.collector ?? collector(context.db, context.timeZone)).record(
    {
      day: dayOf(now, context.timeZone),
      path: read.path,
      source: read.source,
      device: deviceClassOf(headers.get('user-agent')),
      visitor: {
        address: clientAddress(headers, context.trust),
        userAgent: headers.get('user-agent') ?? '',
        host: originFacts(headers, context.trust).host ?? '',
      },
    },
    now,
  );
  return counted ? 'counted' : 'limited';
}
