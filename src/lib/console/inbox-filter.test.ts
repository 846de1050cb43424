import { describe, expect, it } from 'vitest';
import { describeFilter, filterQuery, parseInboxFilter, parsePage } from './inbox-filter';

describe('inbox filter', () => {
  it('parses the URL parameters, ignoring malformed ones', () => {
    expect(
      parseInboxFilter({
        q: ' rao ',
        delivery: 'failed',
        demo: 'yes',
        from: '2026-03-01',
        to: '2026-03-31',
        subject: 'Pharmacy',
      }),
    ).toEqual({
      search: 'rao',
      delivery: 'failed',
      hasDemo: true,
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-04-01T00:00:00Z'),
      subject: 'Pharmacy',
    });
    expect(parseInboxFilter({ delivery: 'lost', demo: 'maybe', from: '1 March' })).toEqual({
      search: undefined,
      delivery: undefined,
      hasDemo: undefined,
      from: undefined,
      to: undefined,
      subject: undefined,
    });
  });

  it('keeps the filter in links and describes it', () => {
    expect(parsePage({ page: '3' })).toBe(3);
    expect(parsePage({ page: '-1' })).toBe(1);
    expect(filterQuery({ q: 'a b', page: '2', other: 'x' }, { page: '3' })).toBe('?q=a+b&page=3');
    // The typed texts (a name, an address) are never recorded: only that a search was made.
    expect(describeFilter({ q: 'a b', delivery: 'failed' })).toBe('q=(searched) delivery=failed');
    expect(describeFilter({ q: 'Kiran Rao', subject: 'Rao', page: '2' })).toBe(
      'q=(searched) subject=(searched)',
    );
    expect(describeFilter({ q: '  ', demo: 'yes' })).toBe('demo=yes');
    expect(describeFilter({})).toBe('all');
  });
});
