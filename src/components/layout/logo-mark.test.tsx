import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LogoMark } from './logo-mark';

/** The drawing of an SVG: its shape elements, self-closed, without the root's attributes. */
const shapes = (svg: string) =>
  svg
    .replace(/^<svg[^>]*>/, '')
    .replace(/<\/svg>\s*$/, '')
    .replace(/><\/(rect|path|circle)>/g, '/>')
    .replace(/\s*\/>/g, '/>');

describe('LogoMark', () => {
  it('draws the same shapes as the favicon src/app/icon.svg', () => {
    const icon = readFileSync(new URL('../../app/icon.svg', import.meta.url), 'utf8').trim();
    expect(shapes(renderToStaticMarkup(<LogoMark />))).toBe(shapes(icon));
  });

  it('is decorative and sized in px', () => {
    const markup = renderToStaticMarkup(<LogoMark size={48} />);
    expect(markup).toMatch(/^<svg aria-hidden="true" viewBox="0 0 32 32" width="48" height="48"/);
  });
});
