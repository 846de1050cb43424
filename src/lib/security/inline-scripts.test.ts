import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, scriptHash, withoutScripts } from './inline-scripts';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('scriptHash', () => {
  it('matches the example hash of the CSP specification', () => {
    // CSP Level 3, §2.3.1: alert('Hello, world.'); has this SHA-256.
    expect(scriptHash("alert('Hello, world.');")).toBe(
      "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='",
    );
  });

  it('hashes the UTF-8 bytes of non-ASCII text', () => {
    expect(scriptHash('"₹ 100"')).toBe(sha('"₹ 100"'));
  });
});

describe('inlineScriptHashes', () => {
  it('hashes the exact text of executable inline scripts, in order, once each', () => {
    const html =
      '<html><head><script>a()</script></head><body>' +
      '<script id="_R_">\n b() </script><script type="module">c()</script>' +
      '<script type="text/javascript">d()</script><script>a()</script></body></html>';
    expect(inlineScriptHashes(html)).toEqual([sha('a()'), sha('\n b() '), sha('c()'), sha('d()')]);
  });

  it('skips external scripts and data blocks such as JSON-LD', () => {
    const html =
      '<script src="/_next/static/chunks/x.js" async=""></script>' +
      '<script type="application/ld+json">{"@type":"Organization"}</script>' +
      '<script type=\'application/json\'>{}</script><script nonce="n">e()</script>';
    expect(inlineScriptHashes(html)).toEqual([sha('e()')]);
  });

  it('hashes an empty inline script (browsers check it too)', () => {
    expect(inlineScriptHashes('<script></script>')).toEqual([sha('')]);
  });

  it('returns nothing for a page without scripts', () => {
    expect(inlineScriptHashes('<p>script</p>')).toEqual([]);
  });
});

describe('withoutScripts', () => {
  it('removes inline and external scripts and script preloads, and keeps the rest', () => {
    const html =
      '<head><link rel="preload" as="script" href="/a.js"/><link rel="stylesheet" href="/s.css"/>' +
      '<script src="/b.js" async=""></script></head><body><p>Text</p><script>self.x=1</script>' +
      '<script type="application/ld+json">{}</script></body>';
    expect(withoutScripts(html)).toBe(
      '<head><link rel="stylesheet" href="/s.css"/></head><body><p>Text</p></body>',
    );
  });
});
