// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPageScript } from './page-script';

describe('the page script', () => {
  afterEach(() => vi.useRealTimers());

  it('does nothing in the task that starts it, then runs each step in a task of its own', () => {
    vi.useFakeTimers({ now: new Date('2031-03-01T10:00:00Z'), toFake: ['Date'] });
    // Narrow, and reduced motion, so that the reveal step (jsdom has no IntersectionObserver) returns.
    window.matchMedia = (query: string) =>
      ({
        matches: query.includes('reduce'),
        media: query,
        addEventListener() {},
      }) as unknown as MediaQueryList;
    document.body.innerHTML =
      '<span data-current-year="">2026</span><div role="tablist" data-vertical-query="(min-width: 968px)"></div>';
    const year = document.querySelector('[data-current-year]')!;
    const tabs = document.querySelector('[role="tablist"]')!;
    const tasks: (() => void)[] = [];
    const setTimeout = vi
      .spyOn(window, 'setTimeout')
      .mockImplementation(((task: () => void) => tasks.push(task)) as typeof window.setTimeout);
    try {
      startPageScript(window);
    } finally {
      setTimeout.mockRestore();
    }
    expect(year.textContent).toBe('2026');
    expect(tasks).toHaveLength(3);
    tasks[0]!();
    expect(year.textContent).toBe('2031');
    expect(tabs.hasAttribute('aria-orientation')).toBe(false);
    tasks[1]!();
    expect(tabs.getAttribute('aria-orientation')).toBe('horizontal');
    tasks[2]!();
  });
});
