import { describe, expect, it } from 'vitest';
import { foldLongTail, OTHER, type SourceKey } from './fold';

const key = (utmCampaign: string): SourceKey => ({
  referrerHost: '',
  utmSource: 'newsletter',
  utmMedium: '',
  utmCampaign,
});
const empty = () => ({
  referrerHost: new Set<string>(),
  utmSource: new Set<string>(),
  utmMedium: new Set<string>(),
  utmCampaign: new Set<string>(),
});

describe('foldLongTail', () => {
  it('keeps the first distinct values of a day and folds the rest into "other"', () => {
    const known = empty();
    const campaigns = Array.from({ length: 8 }, (_, i) => key(`c${i}`));
    const folded = foldLongTail(campaigns, known, 5);
    expect(folded.map((row) => row.utmCampaign)).toEqual([
      'c0',
      'c1',
      'c2',
      'c3',
      'c4',
      OTHER,
      OTHER,
      OTHER,
    ]);
    // A value already stored that day stays itself, even past the cap; none is never folded.
    expect(
      foldLongTail([key('c2'), key('c9'), key('')], known, 5).map((r) => r.utmCampaign),
    ).toEqual(['c2', OTHER, '']);
    expect(folded.every((row) => row.utmSource === 'newsletter')).toBe(true);
  });
});
