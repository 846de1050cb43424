import { describe, expect, it } from 'vitest';
import {
  BEACON_MAX_GZIP_BYTES,
  buildBeacon,
  buildPageScript,
  PAGE_SCRIPT_MAX_GZIP_BYTES,
} from './beacon';

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

describe('the page script build', () => {
  it('is one minified script under its budget, named by its content, without React', async () => {
    const script = await buildPageScript();
    console.log(`page script: ${script.text.length} bytes, ${script.gzipBytes} bytes gzip`);
    expect(script.gzipBytes).toBeLessThanOrEqual(PAGE_SCRIPT_MAX_GZIP_BYTES);
    expect(script.path).toMatch(/^\/_next\/static\/deferred\/[\w-]{16}\.js$/);
    // Reveal on scroll, the footer's year and the tabs' orientation.
    for (const part of ['IntersectionObserver', 'data-current-year', 'data-vertical-query'])
      expect(script.text).toContain(part);
    expect(script.text).not.toMatch(/\bimport\b|\bexport\b|require\(|react/i);
    expect((await buildPageScript()).path).toBe(script.path);
  });
});
