import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '@/lib/security/inline-scripts';
import { createPageRewrite, nonceOf } from './page-rewrite';
import { LOADER } from '@/lib/page-loader';

const nonce = 'bm9uY2Utb2YtdGhlLXBhZ2U=';
const beacon = '/_next/static/deferred/beacon-abc.js';
const pageScript = '/_next/static/deferred/page-abc.js';

/** A comment: passed unexamined. */
const comment = '<!-- <script src="/x.js"></script> -->';

/** The shape of a page Next.js 16 renders per request (streamed, under a nonce), shortened. */
const page = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
  '<link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next" nonce="N"/>',
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/main.js" nonce="N"/>',
  '<script src="/_next/static/chunks/one.js" async="" nonce="N"></script>',
  '<script src="/_next/static/chunks/turbopack-two.js" async="" nonce="N"></script>',
  '<title>Contact Us | Nirmaya — ç</title>',
  '<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="N"></script></head>',
  '<body><main><h1>Contact Us</h1>',
  comment,
  '<style>p > a { color: red }</style>',
  '<form><input type="hidden" name="landingPage" value=""/></form></main>',
  '<script type="application/ld+json">{"@type":"Organization","name":"a<b"}</script>',
  '<script id="_R_" nonce="N">(globalThis.TURBOPACK||(globalThis.TURBOPACK=[])).push({})</script>',
  '<script src="/_next/static/chunks/main.js" async="" nonce="N"></script>',
  '<script nonce="N">(self.__next_f=self.__next_f||[]).push([0])</script>',
  '<script nonce="N">self.__next_f.push([1,"0:[\\"$\\",\\"main\\",\\"\\u003cscript\\"]\\n"])</script>',
  '</body></html>',
]
  .join('')
  .replace(/"N"/g, `"${nonce}"`);

/** Feeds `html` in the given pieces; returns the output and the reasons it gave up, if any. */
function rewrite(pieces: string[]) {
  const reasons: string[] = [];
  const deferred = createPageRewrite({
    nonce,
    atLoad: [beacon, pageScript],
    warn: (reason) => reasons.push(reason),
  });
  const out = pieces.map((piece) => deferred.push(piece)).join('') + deferred.end();
  return { out, reasons };
}

/** `text` cut at random places (a seeded generator, so a failure can be replayed). */
function randomSplits(text: string, seed: number): string[] {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 40;
  const pieces: string[] = [];
  for (let at = 0; at < text.length;) {
    const length = 1 + Math.floor(next());
    pieces.push(text.slice(at, at + length));
    at += length;
  }
  return pieces;
}

describe('the rewrite of a page rendered per request', () => {
  const whole = rewrite([page]);

  it('removes the script files and preloads, and loads them on the first interaction with the nonce', () => {
    expect(whole.reasons).toEqual([]);
    const out = whole.out.replace(comment, '');
    expect(out).not.toMatch(/<script\b[^>]*\bsrc=/);
    expect(out).not.toContain('as="script"');
    const loader =
      /<script data-a="([^"]*)" data-l="([^"]*)" data-n="([^"]*)" nonce="([^"]*)">([\s\S]*?)<\/script><\/body><\/html>$/.exec(
        out,
      );
    // The beacon and the page script at `load`, the framework's files on the first interaction.
    expect(loader?.[1]?.split(' ')).toEqual([beacon, pageScript]);
    expect(loader?.[2]?.split(' ')).toEqual([
      '/_next/static/chunks/one.js',
      '/_next/static/chunks/turbopack-two.js',
      '/_next/static/chunks/polyfills.js',
      '/_next/static/chunks/main.js',
    ]);
    expect(loader?.[3]).toBe('/_next/static/chunks/polyfills.js');
    expect(loader?.[4]).toBe(nonce);
    expect(loader?.[5]).toBe(LOADER);
  });

  it('keeps everything else as it was: inline scripts under their nonce, data, comments, styles', () => {
    const { out } = whole;
    const removed = page
      .replace(comment, '@')
      .replace(/<link rel="preload" as="script"[^>]*>/g, '')
      .replace(/<script src="[^"]*"[^>]*><\/script>/g, '');
    expect(out.replace(/<script data-a=[^>]*>[\s\S]*?<\/script>/, '')).toBe(
      removed.replace('@', comment),
    );
    expect(inlineScriptHashes(out)).toHaveLength(4); // TURBOPACK, two pushes, the loader
  });

  it('gives the same page when fed one character at a time or cut anywhere', () => {
    expect(rewrite([...page]).out).toBe(whole.out);
    for (let seed = 1; seed <= 200; seed += 1)
      expect(rewrite(randomSplits(page, seed)).out, `seed ${seed}`).toBe(whole.out);
  });

  it('streams: what comes before a tag is given back at once, the head before the body arrives', () => {
    const deferred = createPageRewrite({ nonce, atLoad: [beacon], warn: () => {} });
    const head = page.slice(0, page.indexOf('<body>'));
    const sent = deferred.push(head);
    expect(sent).toContain('<title>Contact Us | Nirmaya — ç</title>');
    expect(sent).not.toContain('<script');
    expect(deferred.push('<body><p>Hello')).toBe('<body><p>Hello');
    expect(deferred.push('</p><scr')).toBe('</p>');
  });

  it('passes a page it does not know through unchanged from there on, scripts put back, and says why', () => {
    const foreign = page.replace(
      '<script src="/_next/static/chunks/main.js"',
      '<script src="https://cdn.example/main.js"',
    );
    const { out, reasons } = rewrite([...foreign]);
    expect(reasons).toEqual(['script from elsewhere']);
    expect(out).not.toContain('data-l=');
    // The tags taken out before are back, so the page loads as Next.js wrote it.
    for (const src of ['one.js', 'turbopack-two.js', 'polyfills.js'])
      expect(out).toContain(`<script src="/_next/static/chunks/${src}" `);
    expect(out).toContain('https://cdn.example/main.js');

    const moduleScript = rewrite([page.replace('<script nonce=', '<script type="module" nonce=')]);
    expect(moduleScript.reasons).toEqual(['module script']);
    const cut = rewrite([page.replace('</body></html>', '')]);
    expect(cut.reasons).toEqual(['no </body>']);
    expect(cut.out).toContain('/_next/static/chunks/main.js');
    const none = rewrite([page.replace(/<script src="[^"]*"[^>]*><\/script>/g, '')]);
    expect(none.reasons).toEqual(['no script file']);
  });

  it('leaves a page deferred at build (the 404 page) as it is', () => {
    const built = `<html><body><p>Not found</p><script data-l="/_next/static/deferred/x.js">${LOADER}</script></body></html>`;
    const { out, reasons } = rewrite([...built]);
    expect(out).toBe(built);
    expect(reasons).toEqual([]);
  });

  it('reads the nonce of a policy', () => {
    expect(nonceOf(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`)).toBe(nonce);
    expect(nonceOf("script-src 'self' 'sha256-abc='")).toBeNull();
    expect(nonceOf(undefined)).toBeNull();
  });
});
