import { describe, expect, it } from 'vitest';
import { budgetMisses } from './report.mjs';

/** One route's medians that meet every budget. */
const good = {
  performance: 1,
  accessibility: 1,
  bestPractices: 1,
  seo: 1,
  lcpMs: 900,
  tbtMs: 40,
  cls: 0,
  pageWeightKiB: 40,
  codeKiB: 0,
  noJsLcpMs: 900,
  observedLcpMs: 1700,
  noJsObservedLcpMs: 1700,
};
const floor = { tbtMs: 100 };

describe('budgetMisses', () => {
  it('passes a route that meets every budget', () => {
    expect(budgetMisses({ ...good, noJs: { performance: 1, tbtMs: 10 } }, 132, floor)).toEqual([]);
  });

  it('holds the score and TBT budgets when the page without JavaScript meets them', () => {
    const misses = budgetMisses(
      { ...good, performance: 0.98, tbtMs: 160, noJs: { performance: 1, tbtMs: 40 } },
      132,
      floor,
    );
    expect(misses).toEqual([
      'performance (no JS 1.00) 0.98 < 0.995',
      'TBT ms (no JS 40) 160 >= 150',
      'TBT ms (empty Next.js page) 160 > 100',
    ]);
  });

  it('bounds them by the page without JavaScript, served with the same defences, when it misses them too', () => {
    const route = {
      ...good,
      performance: 0.97,
      tbtMs: 180,
      noJs: { performance: 0.97, tbtMs: 200 },
    };
    expect(budgetMisses(route, 132, floor)).toEqual([]);
    expect(budgetMisses({ ...route, performance: 0.96, tbtMs: 210 }, 132, floor)).toEqual([
      'performance (no JS 0.97) 0.96 < 0.995',
      'TBT ms (no JS 200) 210 >= 150',
      'TBT ms (empty Next.js page) 210 > 100',
    ]);
  });

  it('holds the full budgets when the page without JavaScript was not measured', () => {
    const route = { ...good, performance: 0.97, tbtMs: 180, noJs: { performance: Number.NaN } };
    expect(budgetMisses(route, 132, floor)).toEqual([
      'performance (no JS —) 0.97 < 0.995',
      'TBT ms (no JS —) 180 >= 150',
      'TBT ms (empty Next.js page) 180 > 100',
    ]);
  });
});
