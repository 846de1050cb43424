import { describe, expect, it } from 'vitest';
import { HYDRATE_AT_LOAD_ATTRIBUTE } from './page-loader';
import { hydrateAtLoad } from './hydrate-at-load';

describe('the mark that starts the framework at load', () => {
  it("is the attribute the page's loader looks for", () => {
    expect(Object.keys(hydrateAtLoad)).toEqual([HYDRATE_AT_LOAD_ATTRIBUTE]);
  });
});
