// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showCurrentYear } from './current-year';

describe("the footer's year", () => {
  afterEach(() => vi.useRealTimers());

  it("replaces the build's year with the visitor's clock's, in every marked element only", () => {
    vi.useFakeTimers({ now: new Date('2031-03-01T10:00:00Z'), toFake: ['Date'] });
    document.body.innerHTML =
      '<p>© <span data-current-year="">2026</span> Nirmaya</p><p id="other">2026</p>';
    showCurrentYear(window);
    expect(document.querySelector('[data-current-year]')!.textContent).toBe('2031');
    expect(document.getElementById('other')!.textContent).toBe('2026');
  });
});
