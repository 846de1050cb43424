// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { startReveal } from './reveal';

/** jsdom lays nothing out: each element's top comes from its `data-top` (px from the viewport's top). */
function layout() {
  HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
    const top = Number(this.dataset.top ?? 0);
    return { top, bottom: top + 10, left: 0, right: 10, width: 10, height: 10 } as DOMRect;
  };
}

/** A window whose IntersectionObserver is driven by the test, and its motion preference. */
function fakeWindow(reducedMotion = false) {
  const observed = new Set<Element>();
  let callback: IntersectionObserverCallback = () => {};
  class FakeObserver {
    constructor(cb: IntersectionObserverCallback) {
      callback = cb;
    }
    observe(element: Element) {
      observed.add(element);
    }
    unobserve(element: Element) {
      observed.delete(element);
    }
    disconnect() {}
  }
  const win = Object.assign(Object.create(window), {
    document,
    innerHeight: 800,
    matchMedia: (query: string) => ({ matches: reducedMotion && query.includes('reduce') }),
    IntersectionObserver: FakeObserver,
    MutationObserver: window.MutationObserver,
  }) as Window & typeof globalThis;
  const enter = (element: Element) =>
    callback(
      [{ target: element, isIntersecting: true } as unknown as IntersectionObserverEntry],
      {} as IntersectionObserver,
    );
  return { win, observed, enter };
}

/** A new body with `html` (the observers of an earlier test watch the old one). */
function page(html: string) {
  const body = document.createElement('body');
  body.innerHTML = html;
  document.documentElement.replaceChild(body, document.body);
}

const reveal = (top: number, id: string) =>
  `<div id="${id}" data-reveal="" data-top="${top}"></div>`;
const state = (id: string) => document.getElementById(id)!.getAttribute('data-reveal');

describe('reveal on scroll', () => {
  layout();

  it('leaves what is on screen shown and sets what is below the fold pending until it enters', () => {
    page(reveal(100, 'top') + reveal(900, 'below'));
    const { win, observed, enter } = fakeWindow();
    startReveal(win);
    expect(state('top')).toBe('shown');
    expect(state('below')).toBe('pending');
    expect([...observed].map((element) => element.id)).toEqual(['below']);
    enter(document.getElementById('below')!);
    expect(state('below')).toBe('shown');
    expect(observed.size).toBe(0);
  });

  it('looks at elements added later (a client-side navigation), by the same rule', async () => {
    page(reveal(100, 'top'));
    const { win, observed } = fakeWindow();
    startReveal(win);
    document.body.insertAdjacentHTML(
      'beforeend',
      reveal(50, 'new-top') + reveal(1200, 'new-below'),
    );
    await Promise.resolve(); // the MutationObserver's callback is a microtask
    expect(state('new-top')).toBe('shown');
    expect(state('new-below')).toBe('pending');
    expect([...observed].map((element) => element.id)).toEqual(['new-below']);
  });

  it('does nothing under prefers-reduced-motion', () => {
    page(reveal(100, 'top') + reveal(900, 'below'));
    const { win, observed } = fakeWindow(true);
    startReveal(win);
    expect(state('top')).toBe('');
    expect(state('below')).toBe('');
    expect(observed.size).toBe(0);
  });
});
