import 'server-only';
import { and, between, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { OTHER } from './fold';
import { countHeldDemos, type FunnelStep } from './funnel';
import { funnelCounts, visitCounts } from './schema';

/** The path whose views are the funnel's "contact page views". */
export const CONTACT_PATH = '/contact-us';

/** How many rows the top lists show. */
export const TOP_ROWS = 10;

/**
 * Rows the funnel shows; the smaller sources (by visitors, then enquiries) are summed into one
 * `other` row, so a flood of made-up tags can push no real campaign out: it only swells `other`.
 */
export const FUNNEL_ROWS = 20;

/** One row of a top list: views and visitors (sum of the daily uniques). */
export type Tally = { label: string; views: number; visitors: number };

/** One source's way through the funnel over the range. */
export type FunnelRow = {
  /** The campaign's `utm_source`, else the referring host, else `(direct)`. */
  source: string;
  /** `utm_campaign`, `''` when none. */
  campaign: string;
  visitors: number;
  contactViews: number;
  enquiries: number;
  demosBooked: number;
  demosHeld: number;
};

/** What the Sources page and its CSV show for a range of days. */
export type SourcesReport = {
  from: string;
  to: string;
  views: number;
  /** The sum of each day's unique visitors (a visitor of two days counts twice). */
  visitors: number;
  days: { day: string; views: number; visitors: number }[];
  pages: Tally[];
  referrers: Tally[];
  campaigns: (Tally & { source: string; medium: string })[];
  funnel: FunnelRow[];
  total: FunnelRow;
};

const views = sql<number>`coalesce(sum(${visitCounts.views}), 0)::int`;
const visitors = sql<number>`coalesce(sum(${visitCounts.visitors}), 0)::int`;

/** The funnel's label of a source: its `utm_source`, its referring host, or `(direct)`. */
export function sourceLabel(utmSource: string, referrerHost: string): string {
  return utmSource || referrerHost || '(direct)';
}

/**
 * The visits and the funnel between `from` and `to` (days `YYYY-MM-DD`, both included, in the
 * site's zone). Demos whose start has passed by `now` are counted as held first (countHeldDemos).
 * Reads aggregates only: no person's data.
 */
export async function sourcesReport(
  db: Db,
  range: { from: string; to: string },
  options: { timeZone: string; now?: Date },
): Promise<SourcesReport> {
  await countHeldDemos(db, options.timeZone, options.now ?? new Date());
  const inRange = between(visitCounts.day, range.from, range.to);
  const [totals] = await db.select({ views, visitors }).from(visitCounts).where(inRange);
  const days = await db
    .select({ day: visitCounts.day, views, visitors })
    .from(visitCounts)
    .where(inRange)
    .groupBy(visitCounts.day)
    .orderBy(visitCounts.day);
  const top = async (column: typeof visitCounts.path | typeof visitCounts.referrerHost) =>
    db
      .select({ label: column, views, visitors })
      .from(visitCounts)
      .where(inRange)
      .groupBy(column)
      .orderBy(desc(views), column)
      .limit(TOP_ROWS);
  const pages = await top(visitCounts.path);
  const referrers = (await top(visitCounts.referrerHost)).filter((row) => row.label !== '');
  const campaigns = await db
    .select({
      label: visitCounts.utmCampaign,
      source: visitCounts.utmSource,
      medium: visitCounts.utmMedium,
      views,
      visitors,
    })
    .from(visitCounts)
    .where(and(inRange, sql`(${visitCounts.utmCampaign} <> '' or ${visitCounts.utmSource} <> '')`))
    .groupBy(visitCounts.utmCampaign, visitCounts.utmSource, visitCounts.utmMedium)
    .orderBy(desc(views))
    .limit(TOP_ROWS);
  const funnel = await funnelRows(db, range);
  const total = funnel.reduce(
    (sum, row) => ({
      ...sum,
      visitors: sum.visitors + row.visitors,
      contactViews: sum.contactViews + row.contactViews,
      enquiries: sum.enquiries + row.enquiries,
      demosBooked: sum.demosBooked + row.demosBooked,
      demosHeld: sum.demosHeld + row.demosHeld,
    }),
    emptyRow('All sources', ''),
  );
  return {
    ...range,
    views: totals?.views ?? 0,
    visitors: totals?.visitors ?? 0,
    days,
    pages,
    referrers,
    campaigns,
    funnel,
    total,
  };
}

function emptyRow(source: string, campaign: string): FunnelRow {
  return {
    source,
    campaign,
    visitors: 0,
    contactViews: 0,
    enquiries: 0,
    demosBooked: 0,
    demosHeld: 0,
  };
}

const stepField: Record<FunnelStep, 'enquiries' | 'demosBooked' | 'demosHeld'> = {
  enquiry: 'enquiries',
  demo_booked: 'demosBooked',
  demo_held: 'demosHeld',
};

/** The funnel per source and campaign, largest first by visitors then enquiries. */
async function funnelRows(db: Db, range: { from: string; to: string }): Promise<FunnelRow[]> {
  const rows = new Map<string, FunnelRow>();
  const row = (utmSource: string, referrerHost: string, campaign: string) => {
    const source = sourceLabel(utmSource, referrerHost);
    const key = JSON.stringify([source, campaign]);
    let found = rows.get(key);
    if (!found) rows.set(key, (found = emptyRow(source, campaign)));
    return found;
  };
  const visits = await db
    .select({
      utmSource: visitCounts.utmSource,
      referrerHost: visitCounts.referrerHost,
      campaign: visitCounts.utmCampaign,
      visitors,
      contactViews: sql<number>`coalesce(sum(${visitCounts.views}) filter (where ${eq(visitCounts.path, CONTACT_PATH)}), 0)::int`,
    })
    .from(visitCounts)
    .where(between(visitCounts.day, range.from, range.to))
    .groupBy(visitCounts.utmSource, visitCounts.referrerHost, visitCounts.utmCampaign);
  for (const visit of visits) {
    const target = row(visit.utmSource, visit.referrerHost, visit.campaign);
    target.visitors += visit.visitors;
    target.contactViews += visit.contactViews;
  }
  const steps = await db
    .select({
      step: funnelCounts.step,
      utmSource: funnelCounts.utmSource,
      referrerHost: funnelCounts.referrerHost,
      campaign: funnelCounts.utmCampaign,
      count: sql<number>`sum(${funnelCounts.count})::int`,
    })
    .from(funnelCounts)
    .where(between(funnelCounts.day, range.from, range.to))
    .groupBy(
      funnelCounts.step,
      funnelCounts.utmSource,
      funnelCounts.referrerHost,
      funnelCounts.utmCampaign,
    );
  for (const step of steps) {
    const field = stepField[step.step as FunnelStep];
    if (field) row(step.utmSource, step.referrerHost, step.campaign)[field] += step.count;
  }
  const sorted = [...rows.values()].sort(
    (a, b) =>
      b.visitors - a.visitors || b.enquiries - a.enquiries || a.source.localeCompare(b.source),
  );
  return foldByVolume(sorted);
}

/** `rows` (largest first) with those past FUNNEL_ROWS summed into one `other` row. */
function foldByVolume(rows: FunnelRow[]): FunnelRow[] {
  if (rows.length <= FUNNEL_ROWS) return rows;
  const other = emptyRow(OTHER, '');
  for (const row of rows.slice(FUNNEL_ROWS - 1)) {
    other.visitors += row.visitors;
    other.contactViews += row.contactViews;
    other.enquiries += row.enquiries;
    other.demosBooked += row.demosBooked;
    other.demosHeld += row.demosHeld;
  }
  return [...rows.slice(0, FUNNEL_ROWS - 1), other];
}
