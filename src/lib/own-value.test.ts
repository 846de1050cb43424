import { describe, expect, it } from 'vitest';
import { ownValue } from './own-value';

const texts: Record<string, string> = { saved: 'Saved.', removed: 'Removed.' };

describe('ownValue', () => {
  it("finds the table's own entries", () => {
    expect(ownValue(texts, 'saved')).toBe('Saved.');
  });

  it('answers prototype keys, lists and absent values with undefined', () => {
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'x'])
      expect(ownValue(texts, key), key).toBeUndefined();
    expect(ownValue(texts, ['saved', 'removed'])).toBeUndefined();
    expect(ownValue(texts, undefined)).toBeUndefined();
    expect(ownValue(texts, null)).toBeUndefined();
  });
});
