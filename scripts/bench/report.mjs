// Budget checks and the printed tables of `npm run bench`.
import { BUDGETS } from './config.mjs';

/**
 * Budget misses of one route's medians, as readable strings (empty when all budgets hold).
 * @param {Record<string, number>} m medians of one route (`m.noJs`: the same page's without
 *   JavaScript; the score and TBT budgets hold only where the site does worse than it)
 * @param {number} jsFloorKiB first-load JS of the empty Next.js page
 */
export function budgetMisses(m, jsFloorKiB, floor = {}) {
  const misses = [];
  const atLeast = (key, min, label) =>
    !(m[key] >= min) && misses.push(`${label} ${fmt(m[key], 2)} < ${min}`);
  const below = (key, max, label, digits = 0) =>
    !(m[key] < max) && misses.push(`${label} ${fmt(m[key], digits)} >= ${max}`);
  // The score and TBT budgets give way where the same page without JavaScript, which carries the
  // site's defences too, does no better: Cross-Origin-Opener-Policy costs the first render a
  // renderer of its own, which no script can win back, and the empty Next.js page is served
  // without it (docs/performance.md, "The cost of a defence").
  const bare = m.noJs ?? {};
  const asGoodAsBare = (key, higherIsBetter) =>
    Number.isFinite(bare[key]) && (higherIsBetter ? m[key] >= bare[key] : m[key] <= bare[key]);
  const againstBare = (key, digits) => ` (no JS ${fmt(bare[key], digits)})`;
  if (!asGoodAsBare('performance', true))
    atLeast('performance', BUDGETS.performance, 'performance' + againstBare('performance', 2));
  atLeast('accessibility', BUDGETS.accessibility, 'accessibility');
  atLeast('bestPractices', BUDGETS.bestPractices, 'best practices');
  atLeast('seo', BUDGETS.seo, 'SEO');
  below('lcpMs', BUDGETS.lcpMs, 'LCP ms');
  const tbtAsGoodAsBare = asGoodAsBare('tbtMs', false);
  if (!tbtAsGoodAsBare) below('tbtMs', BUDGETS.tbtMs, 'TBT ms' + againstBare('tbtMs', 0));
  below('cls', BUDGETS.cls, 'CLS', 3);
  below('pageWeightKiB', BUDGETS.pageWeightKiB, 'weight KiB');
  const notAbove = (value, max, label, digits = 0) =>
    Number.isFinite(value) &&
    !(value <= max) &&
    misses.push(`${label} ${fmt(value, digits)} > ${fmt(max, digits)}`);
  if (Number.isFinite(jsFloorKiB))
    notAbove(m.codeKiB, jsFloorKiB + BUDGETS.jsOverFloorKiB, 'script code KiB', 1);
  notAbove(m.lcpMs / m.noJsLcpMs, BUDGETS.lcpOverNoJs, 'LCP / no-JS', 2);
  notAbove(
    m.observedLcpMs / m.noJsObservedLcpMs,
    BUDGETS.observedLcpOverNoJs,
    'observed LCP / no-JS',
    2,
  );
  if (Number.isFinite(floor.tbtMs) && !tbtAsGoodAsBare)
    notAbove(m.tbtMs, floor.tbtMs + BUDGETS.tbtOverFloorMs, 'TBT ms (empty Next.js page)');
  return misses;
}

export function fmt(value, digits = 0) {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/** Prints rows (arrays of cells) as an aligned text table under `headers`. */
export function printTable(headers, rows) {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => String(row[i]).length)),
  );
  const line = (cells) => cells.map((cell, i) => String(cell).padStart(widths[i])).join('  ');
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** One table row of Lighthouse medians. */
export function lighthouseRow(name, m) {
  return [
    name,
    fmt(m.performance, 2),
    fmt(m.accessibility, 2),
    fmt(m.bestPractices, 2),
    fmt(m.seo, 2),
    fmt(m.fcpMs),
    fmt(m.lcpMs),
    fmt(m.noJsLcpMs),
    fmt(m.lcpMs / m.noJsLcpMs, 2),
    fmt(m.observedLcpMs),
    fmt(m.noJsObservedLcpMs),
    fmt(m.observedLcpMs / m.noJsObservedLcpMs, 2),
    fmt(m.tbtMs),
    fmt(m.cls, 3),
    fmt(m.ttfbMs),
    fmt(m.pageWeightKiB, 1),
    fmt(m.jsKiB, 1),
    fmt(m.codeKiB, 1),
    fmt(m.jsUncompressedKiB, 1),
    fmt(m.benchmarkIndex),
  ];
}

export const LIGHTHOUSE_HEADERS = [
  'route',
  'perf',
  'a11y',
  'bp',
  'seo',
  'FCP ms',
  'LCP ms',
  'no-JS',
  'ratio',
  'obs LCP',
  'no-JS',
  'ratio',
  'TBT ms',
  'CLS',
  'TTFB ms',
  'weight KiB',
  'JS KiB gz',
  'code KiB',
  'JS KiB raw',
  'CPU index',
];
