import 'server-only';
import { sql } from 'drizzle-orm';
import { clientKey } from '@/lib/http/client-key';
import { createThrottle } from '@/lib/throttle';
import type { DeviceClass, VisitSource } from '@/lib/visit-source';
import type { Db } from '../../platform/db';
import { errorFacts, log } from '../../platform/log';
import { keyedHash } from '../../platform/security/keyed-hash';
import { foldLongTail, knownValues, type SourceKey } from './fold';
import { ClientValues } from './client-values';
import { forgetPastDays, saltOfDay } from './salt';
import { visitCounts, visitHashes } from './schema';

/** One page view as the endpoint accepted it. */
export type PageView = {
  /** The day in the site's zone, `YYYY-MM-DD`. */
  day: string;
  /** A known route. */
  path: string;
  source: Pick<VisitSource, 'referrerHost' | 'utmSource' | 'utmMedium' | 'utmCampaign'>;
  device: DeviceClass;
  /** Who saw it, before hashing: client address, user agent and the host they addressed. */
  visitor: { address: string; userAgent: string; host: string };
};

/**
 * Page views a client may send per minute; more are not counted (kept in memory). A client is
 * its address's client key (clientKey: an IPv6 /64), as in every other limit.
 */
export const VIEWS_PER_CLIENT_MINUTE = 120;
/** Distinct count rows held in memory between flushes; past it, new rows are dropped. */
const MAX_PENDING_ROWS = 20_000;
/**
 * Clients whose views are tallied in the current minute; past it, a new client's views are still
 * counted, unlimited, for the rest of that minute (memory stays bounded: the rows are capped).
 */
export const MAX_TRACKED_CLIENTS = 20_000;
/**
 * Visitor hashes held between flushes (while the database is down, they pile up); past it, a new
 * visitor's view is counted as a view only, not as a visitor.
 */
export const MAX_PENDING_VISITORS = 50_000;
/** At most one `sources.flush_failed` line per this many ms while the database is down. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

type CountKey = SourceKey & { day: string; path: string; device: string };
type Pending = { row: CountKey; views: number };

/**
 * Page views held in memory between flushes: one collector per process (see collector()).
 * A crash loses what it holds: at most one flush interval's views (or, while the database is
 * down, up to MAX_PENDING_ROWS rows).
 */
export class VisitCollector {
  private rows = new Map<string, Pending>();
  /** The day's visitor hashes not yet written, each with the row of its first view. */
  private visitors = new Map<string, { day: string; key: string }>();
  private salts = new Map<string, Promise<string>>();
  private clients = new Map<string, number>();
  private clientValues = new ClientValues();
  private minute = -1;
  private flushing: Promise<void> | null = null;
  private readonly failureLog = createThrottle(FAILURE_LOG_INTERVAL_MS);

  /**
   * @param limits the memory caps, MAX_TRACKED_CLIENTS and MAX_PENDING_VISITORS by default
   *   (smaller in tests)
   */
  constructor(
    private readonly db: Db,
    private readonly limits = {
      trackedClients: MAX_TRACKED_CLIENTS,
      pendingVisitors: MAX_PENDING_VISITORS,
    },
  ) {}

  /**
   * Counts `view` (in memory) unless its client has sent VIEWS_PER_CLIENT_MINUTE views in the
   * current minute of `now`, its source values past the client's own few of the day counted as
   * `other` (ClientValues). Needs the database only for the day's salt (once per day). Memory is
   * bounded: MAX_TRACKED_CLIENTS, MAX_PENDING_ROWS and MAX_PENDING_VISITORS.
   * @returns whether it was counted
   */
  async record(view: PageView, now: Date = new Date()): Promise<boolean> {
    const salt = await this.salt(view.day);
    const minute = Math.floor(now.getTime() / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.clients.clear();
    }
    const client = keyedHash('client', clientKey(view.visitor.address), salt);
    const tallied = this.clients.get(client);
    if (tallied !== undefined || this.clients.size < this.limits.trackedClients) {
      const sent = (tallied ?? 0) + 1;
      this.clients.set(client, sent);
      if (sent > VIEWS_PER_CLIENT_MINUTE) return false;
    }
    const row: CountKey = {
      day: view.day,
      path: view.path,
      device: view.device,
      ...this.clientValues.limit(view.day, client, blankNulls(view.source)),
    };
    const key = JSON.stringify(Object.values(row));
    const pending = this.rows.get(key);
    if (pending) pending.views++;
    else if (this.rows.size < MAX_PENDING_ROWS) this.rows.set(key, { row, views: 1 });
    else return false;
    const { address, userAgent, host } = view.visitor;
    const hash = keyedHash('visit', `${address}\n${userAgent}\n${host}`, salt);
    if (!this.visitors.has(hash) && this.visitors.size < this.limits.pendingVisitors)
      this.visitors.set(hash, { day: view.day, key });
    return true;
  }

  /** Writes what is held (one flush at a time); what fails to write is kept for the next. */
  flush(today?: string): Promise<void> {
    this.flushing ??= this.write(today).finally(() => (this.flushing = null));
    return this.flushing;
  }

  private salt(day: string): Promise<string> {
    let salt = this.salts.get(day);
    if (!salt) {
      for (const old of this.salts.keys()) if (old < day) this.salts.delete(old);
      salt = saltOfDay(this.db, day);
      salt.catch(() => this.salts.delete(day));
      this.salts.set(day, salt);
    }
    return salt;
  }

  private async write(today?: string): Promise<void> {
    if (this.rows.size === 0) return;
    const rows = this.rows;
    const visitors = this.visitors;
    this.rows = new Map();
    this.visitors = new Map();
    try {
      await this.db.transaction(async (tx) => {
        // Which visitors are new today: their hash was not stored yet. One statement per day
        // with the hashes as one array parameter (a row per value built by the query builder
        // cost more CPU than the statement itself). Instances sharing the database insert in one
        // order (sorted), so two concurrent flushes wait for each other instead of deadlocking.
        const newVisitors = new Map<string, number>();
        const hashesByDay = new Map<string, string[]>();
        for (const [hash, { day }] of visitors) {
          const list = hashesByDay.get(day) ?? [];
          list.push(hash);
          hashesByDay.set(day, list);
        }
        for (const [day, hashes] of hashesByDay) {
          hashes.sort();
          const stored = await tx
            .insert(visitHashes)
            .select(sql`select ${day}::date as day, unnest(${sql.param(hashes)}::text[]) as hash`)
            .onConflictDoNothing()
            .returning({ hash: visitHashes.hash });
          for (const { hash } of stored) {
            const key = visitors.get(hash)!.key;
            newVisitors.set(key, (newVisitors.get(key) ?? 0) + 1);
          }
        }
        await upsertCounts(tx as unknown as Db, rows, newVisitors);
      });
      if (today) await forgetPastDays(this.db, today);
    } catch (error) {
      const failures = this.failureLog();
      if (failures !== null)
        log.error({
          event: 'sources.flush_failed',
          failures,
          rows: rows.size,
          error: errorFacts(error),
        });
      for (const [key, pending] of rows) {
        const held = this.rows.get(key);
        if (held) held.views += pending.views;
        else if (this.rows.size < MAX_PENDING_ROWS) this.rows.set(key, pending);
      }
      for (const [hash, visitor] of visitors)
        if (!this.visitors.has(hash) && this.visitors.size < this.limits.pendingVisitors)
          this.visitors.set(hash, visitor);
    }
  }
}

function blankNulls(source: PageView['source']): SourceKey {
  return {
    referrerHost: source.referrerHost ?? '',
    utmSource: source.utmSource ?? '',
    utmMedium: source.utmMedium ?? '',
    utmCampaign: source.utmCampaign ?? '',
  };
}

/** Adds `rows` (views) and `newVisitors` (per row key) to the stored counts, long tail folded. */
async function upsertCounts(
  db: Db,
  rows: Map<string, Pending>,
  newVisitors: Map<string, number>,
): Promise<void> {
  const byDay = new Map<string, [string, Pending][]>();
  for (const entry of rows) {
    const list = byDay.get(entry[1].row.day) ?? [];
    list.push(entry);
    byDay.set(entry[1].row.day, list);
  }
  for (const [day, entries] of byDay) {
    const known = await knownValues(db, visitCounts, day);
    const folded = foldLongTail(
      entries.map(([, pending]) => pending.row),
      known,
    );
    const merged = new Map<string, typeof visitCounts.$inferInsert>();
    entries.forEach(([key, pending], index) => {
      const row = folded[index]!;
      const mergedKey = JSON.stringify(Object.values(row));
      const sum = merged.get(mergedKey) ?? { ...row, views: 0, visitors: 0 };
      sum.views = (sum.views ?? 0) + pending.views;
      sum.visitors = (sum.visitors ?? 0) + (newVisitors.get(key) ?? 0);
      merged.set(mergedKey, sum);
    });
    // Sorted by key, as the hashes are: concurrent flushes lock the rows in one order.
    const values = [...merged.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, value]) => value);
    for (let i = 0; i < values.length; i += 500)
      await db
        .insert(visitCounts)
        .values(values.slice(i, i + 500))
        .onConflictDoUpdate({
          target: [
            visitCounts.day,
            visitCounts.path,
            visitCounts.referrerHost,
            visitCounts.utmSource,
            visitCounts.utmMedium,
            visitCounts.utmCampaign,
            visitCounts.device,
          ],
          set: {
            views: sql`${visitCounts.views} + excluded.views`,
            visitors: sql`${visitCounts.visitors} + excluded.visitors`,
          },
        });
  }
}
