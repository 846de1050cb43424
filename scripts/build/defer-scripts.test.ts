// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, scriptHash } from '@/lib/security/inline-scripts';
import { deferScripts, LOADER } from './defer-scripts';

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

  it('the loader appends the scripts in order after load, ordered, nomodule marked', async () => {
    document.body.innerHTML = '';
    const list = ['/p.js', '/a.js', '/n.js'];
    const script = document.createElement('script');
    script.dataset.l = list.join(' ');
    script.dataset.n = '/n.js';
    document.body.append(script);
    Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
    const added = () => [...document.body.querySelectorAll('script[src]')] as HTMLScriptElement[];
    new Function(LOADER)();
    expect(added()).toEqual([]);
    window.dispatchEvent(new Event('load'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(added().map((s) => s.getAttribute('src'))).toEqual(list);
    expect(added().every((s) => !s.async)).toBe(true);
    // jsdom has no `noModule` property: the loader's assignment shows as a plain one.
    expect(added().map((s) => Boolean(s.noModule))).toEqual([false, false, true]);
  });
});
