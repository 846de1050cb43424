// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inlineScriptHashes, scriptHash } from '@/lib/security/inline-scripts';
import { deferScripts, LOADER } from './defer-scripts';
import { FIRST_PAINT_WAIT_MS, HYDRATE_AT_LOAD_ATTRIBUTE } from '../../src/lib/page-loader';

/** The shape of a page prerendered by Next.js 16 (Turbopack), shortened. */
const page = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
  '<link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>',
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/main.js"/>',
  '<script src="/_next/static/chunks/one.js" async=""></script>',
  '<script src="/_next/static/chunks/turbopack-two.js" async=""></script>',
  '<title>T</title><script src="/_next/static/chunks/polyfills.js" noModule=""></script></head>',
  '<body><main><h1>Hello</h1></main>',
  '<script type="application/ld+json">{"@type":"Organization"}</script>',
  '<script id="_R_">(globalThis.TURBOPACK||(globalThis.TURBOPACK=[])).push({})</script>',
  '<script src="/_next/static/chunks/main.js" async=""></script>',
  '<script>(self.__next_f=self.__next_f||[]).push([0])</script>',
  '<script>self.__next_f.push([1,"0:[\\"$\\",\\"main\\"]\\n"])</script>',
  '</body></html>',
].join('');

describe('deferScripts', () => {
  const { html, payload } = deferScripts(page);

  it('leaves one inline script, the same loader on every page, and no script file or preload', () => {
    expect(inlineScriptHashes(html)).toEqual([scriptHash(LOADER)]);
    expect(html).not.toMatch(/<script\b[^>]*\bsrc=/);
    expect(html).not.toContain('as="script"');
    expect(html).toContain('<h1>Hello</h1>');
    expect(html).toContain('<script type="application/ld+json">{"@type":"Organization"}</script>');
    expect(html.indexOf(LOADER)).toBeLessThan(html.indexOf('</body>'));
  });

  it('moves the inline scripts, in order, into a file named by its content', () => {
    expect(payload.path).toMatch(/^\/_next\/static\/deferred\/[\w-]{16}\.js$/);
    const order = ['TURBOPACK', 'push([0])', 'push([1,'].map((text) => payload.text.indexOf(text));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order[0]).toBeGreaterThanOrEqual(0);
    expect(deferScripts(page).payload.path).toBe(payload.path);
  });

  it('lists the payload first, then the script files in document order, nomodule apart', () => {
    const list = /data-l="([^"]*)"/.exec(html)?.[1]?.split(' ');
    expect(list).toEqual([
      payload.path,
      '/_next/static/chunks/one.js',
      '/_next/static/chunks/turbopack-two.js',
      '/_next/static/chunks/polyfills.js',
      '/_next/static/chunks/main.js',
    ]);
    expect(/data-n="([^"]*)"/.exec(html)?.[1]).toBe('/_next/static/chunks/polyfills.js');
  });

  it('refuses a page whose shape it does not know (a Next.js upgrade changed the markup)', () => {
    expect(() => deferScripts(page.replace(/self\.__next_f/g, 'self.__other'))).toThrow(/payload/);
    expect(() => deferScripts(page.replace(/<script src[^>]*><\/script>/g, ''))).toThrow(
      /script file/,
    );
    expect(() =>
      deferScripts(page.replace('/_next/static/chunks/one.js', 'https://cdn.example/one.js')),
    ).toThrow(/unexpected script source/);
    expect(() => deferScripts(page.replace('</body>', ''))).toThrow(/body/);
  });

  it("names the scripts to run at `load` apart, and marks the console's pages to start at once", () => {
    const atLoad = ['/_next/static/deferred/beacon.js', '/_next/static/deferred/page.js'];
    const deferred = deferScripts(page, { atLoad }).html;
    expect(/data-a="([^"]*)"/.exec(deferred)?.[1]).toBe(atLoad.join(' '));
    expect(/data-l="([^"]*)"/.exec(deferred)?.[1]?.split(' ')[0]).toBe(payload.path);
    expect(deferred).not.toContain('data-now');
    expect(deferScripts(page, { atLoad, now: true }).html).toContain(' data-now=""');
    expect(inlineScriptHashes(deferScripts(page, { now: true }).html)).toEqual([
      scriptHash(LOADER),
    ]);
  });
});

describe('the loader', () => {
  const atLoad = ['/b.js', '/r.js'];
  const list = ['/p.js', '/a.js', '/n.js'];
  const added = () =>
    [...document.body.querySelectorAll('script[src]')].map((s) => s.getAttribute('src'));
  const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

  /** The browser's Paint Timing, which jsdom lacks: `paint(name)` delivers an entry to observers. */
  class FakePerformanceObserver {
    static all: FakePerformanceObserver[] = [];
    on = false;
    constructor(readonly callback: (list: unknown, observer: FakePerformanceObserver) => void) {
      FakePerformanceObserver.all.push(this);
    }
    observe(options: { type: string; buffered: boolean }) {
      this.on = options.type === 'paint' && options.buffered;
    }
    disconnect() {
      this.on = false;
    }
  }
  function paint(name = 'first-contentful-paint') {
    const list = { getEntriesByName: (wanted: string) => (wanted === name ? [{ name }] : []) };
    for (const observer of FakePerformanceObserver.all.filter((o) => o.on))
      observer.callback(list, observer);
  }
  /** `load`, then the first contentful paint, then the task after it. */
  async function loadAndPaint() {
    window.dispatchEvent(new Event('load'));
    paint();
    await tick();
  }
  beforeEach(() => {
    FakePerformanceObserver.all = [];
    vi.stubGlobal('PerformanceObserver', FakePerformanceObserver);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** Runs the loader as a page would: its tag at the end of the body, the page still loading. */
  function start(options: { now?: boolean; body?: string } = {}) {
    document.body.innerHTML = options.body ?? '<form><input id="field"></form><p>Text</p>';
    const script = document.createElement('script');
    script.dataset.a = atLoad.join(' ');
    script.dataset.l = list.join(' ');
    script.dataset.n = '/n.js';
    if (options.now) script.dataset.now = '';
    document.body.append(script);
    Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
    delete (window as { __startedBy?: unknown }).__startedBy;
    new Function(LOADER)();
  }

  it('runs the small scripts after the first paint and the framework on the first interaction, in order', async () => {
    start();
    expect(added()).toEqual([]);
    await loadAndPaint();
    expect(added()).toEqual(atLoad);
    // Reading: scrolling and the wheel start nothing.
    window.dispatchEvent(new Event('scroll'));
    document.body.dispatchEvent(new Event('wheel', { bubbles: true }));
    await tick();
    expect(added()).toEqual(atLoad);
    const paragraph = document.querySelector('p')!;
    paragraph.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(added()).toEqual([...atLoad, ...list]);
    const scripts = [...document.body.querySelectorAll('script[src]')] as HTMLScriptElement[];
    expect(scripts.every((s) => !s.async)).toBe(true);
    // jsdom has no `noModule` property: the loader's assignment shows as a plain one.
    expect(scripts.map((s) => Boolean(s.noModule))).toEqual([false, false, false, false, true]);
    expect((window as { __startedBy?: unknown }).__startedBy).toBe(paragraph);
    paragraph.dispatchEvent(new Event('keydown', { bubbles: true }));
    expect(added()).toHaveLength(atLoad.length + list.length); // once
  });

  for (const type of ['pointerdown', 'touchstart', 'keydown', 'focusin'])
    it(`an interaction before \`load\` (${type}) starts the framework after the first paint, not before`, async () => {
      start();
      const field = document.getElementById('field')!;
      field.dispatchEvent(new Event(type, { bubbles: true }));
      expect(added()).toEqual([]);
      await loadAndPaint();
      expect(added()).toEqual([...atLoad, ...list]);
      expect((window as { __startedBy?: unknown }).__startedBy).toBe(field);
    });

  it('starts the framework at `load` when the focus is already in the page (autofocus)', async () => {
    start();
    const field = document.getElementById('field') as HTMLInputElement;
    field.focus();
    await loadAndPaint();
    expect(added()).toEqual([...atLoad, ...list]);
    expect((window as { __startedBy?: unknown }).__startedBy).toBe(field);
  });

  it(`starts the framework at \`load\` on a page with a ${HYDRATE_AT_LOAD_ATTRIBUTE} element (the 404 page)`, async () => {
    start({ body: `<div ${HYDRATE_AT_LOAD_ATTRIBUTE}=""><p>Page not found</p></div>` });
    expect(added()).toEqual([]);
    await loadAndPaint();
    expect(added()).toEqual([...atLoad, ...list]);
  });

  it('starts nothing at `load` before the first contentful paint', async () => {
    start();
    window.dispatchEvent(new Event('load'));
    await tick();
    expect(added()).toEqual([]);
    paint('first-paint'); // a paint without content
    await tick();
    expect(added()).toEqual([]);
    paint();
    await tick();
    expect(added()).toEqual(atLoad);
  });

  it(`without a paint entry (a background tab, no Paint Timing), starts ${FIRST_PAINT_WAIT_MS} ms after \`load\`, once`, () => {
    vi.stubGlobal('PerformanceObserver', undefined);
    vi.useFakeTimers();
    start();
    window.dispatchEvent(new Event('load'));
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
    expect(added()).toEqual([]);
    vi.advanceTimersByTime(1);
    vi.runOnlyPendingTimers();
    expect(added()).toEqual(atLoad);
    vi.runAllTimers();
    expect(added()).toEqual(atLoad);
  });

  it('a paint after the wait has run starts nothing twice', () => {
    vi.useFakeTimers();
    start();
    window.dispatchEvent(new Event('load'));
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    vi.runOnlyPendingTimers();
    paint();
    vi.runAllTimers();
    expect(added()).toEqual(atLoad);
  });

  it('with `data-now` (the console), starts everything at `load`', async () => {
    start({ now: true });
    await loadAndPaint();
    expect(added()).toEqual([...atLoad, ...list]);
  });
});
