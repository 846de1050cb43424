import { describe, expect, it } from 'vitest';
import { BEACON_MAX_GZIP_BYTES, buildBeacon, buildReveal, REVEAL_MAX_GZIP_BYTES } from './beacon';

describe('the visit beacon build', () => {
  it('is one minified script under its budget, named by its content', async () => {
    const beacon = await buildBeacon();
    console.log(`visit beacon: ${beacon.text.length} bytes, ${beacon.gzipBytes} bytes gzip`);
    expect(beacon.gzipBytes).toBeLessThanOrEqual(BEACON_MAX_GZIP_BYTES);
    expect(beacon.path).toMatch(/^\/_next\/static\/deferred\/[\w-]{16}\.js$/);
    expect(beacon.text).toContain('"/api/v"');
    expect(beacon.text).not.toMatch(/\bimport\b|\bexport\b|require\(/);
    expect((await buildBeacon()).path).toBe(beacon.path);
  });
});

describe('the reveal script build', () => {
  it('is one minified script under its budget, named by its content, without React', async () => {
    const reveal = await buildReveal();
    console.log(`reveal script: ${reveal.text.length} bytes, ${reveal.gzipBytes} bytes gzip`);
    expect(reveal.gzipBytes).toBeLessThanOrEqual(REVEAL_MAX_GZIP_BYTES);
    expect(reveal.path).toMatch(/^\/_next\/static\/deferred\/[\w-]{16}\.js$/);
    expect(reveal.text).toContain('IntersectionObserver');
    expect(reveal.text).not.toMatch(/\bimport\b|\bexport\b|require\(|react/i);
    expect((await buildReveal()).path).toBe(reveal.path);
  });
});
