// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { followTabOrientation } from './tab-orientation';

/** A window whose media query matches while `state.wide` holds; `resize()` tells its listeners. */
function fakeWindow(state: { wide: boolean }) {
  const listeners: (() => void)[] = [];
  const queries: string[] = [];
  const win = {
    document,
    matchMedia(query: string) {
      queries.push(query);
      return {
        get matches() {
          return state.wide;
        },
        addEventListener: (_: string, listener: () => void) => listeners.push(listener),
      };
    },
  } as unknown as Window & typeof globalThis;
  return { win, queries, resize: () => listeners.forEach((listener) => listener()) };
}

describe("the tabs' orientation before the framework", () => {
  it('follows the query of the tab list: vertical while it matches, horizontal when it stops', () => {
    document.body.innerHTML =
      '<div role="tablist" aria-orientation="vertical" data-vertical-query="(min-width: 968px)"></div>';
    const list = document.querySelector('[role="tablist"]')!;
    const state = { wide: false };
    const { win, queries, resize } = fakeWindow(state);
    followTabOrientation(win);
    expect(queries).toEqual(['(min-width: 968px)']);
    expect(list.getAttribute('aria-orientation')).toBe('horizontal');
    state.wide = true;
    resize();
    expect(list.getAttribute('aria-orientation')).toBe('vertical');
  });
});
