import { describe, expect, it } from 'vitest';
import { serializeJsonLd } from './json-ld';

describe('serializeJsonLd', () => {
  const hostile = {
    '@context': 'https://schema.org',
    '@type': 'Thing',
    name: '</script><script>alert(1)</script> <!-- & \u2028\u2029',
  } as const;

  it('cannot close the script element or open a comment', () => {
    const text = serializeJsonLd(hostile);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain('\\u003c/script\\u003e');
  });

  it('still parses to the same data', () => {
    expect(JSON.parse(serializeJsonLd(hostile))).toEqual(hostile);
  });
});
