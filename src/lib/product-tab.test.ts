import { describe, expect, it } from 'vitest';
import { parseProductId } from './product-tab';

describe('parseProductId (spec §2)', () => {
  it.each([
    [undefined, 0],
    ['0', 0],
    ['3', 3],
    ['8', 8],
    ['03', 3],
    ['abc', 0],
    ['', 0],
    [' ', 0],
    ['3abc', 0],
    ['NaN', 0],
    ['Infinity', 0],
    ['0x3', 0],
    ['9', null],
    ['10', null],
    ['-1', null],
    ['1.5', null],
    ['999999999999999999999', null],
  ])('%j -> %j', (id, expected) => {
    expect(parseProductId(id)).toBe(expected);
  });
});
