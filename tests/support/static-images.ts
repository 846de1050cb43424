import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Vite plugin for the unit tests: an imported `.svg` becomes what `next build` makes of it, a
 * StaticImageData `{ src, width, height }` (URL under /_next/static/media, size in px from the
 * `<svg>` element's `width` and `height`), instead of Vite's plain URL string.
 * @throws {Error} when the file's `<svg>` element has no numeric `width` or `height`
 */
export function staticImages(): Plugin {
  return {
    name: 'next-static-images',
    enforce: 'pre',
    load(id) {
      const file = id.split('?')[0]!;
      if (!file.endsWith('.svg')) return null;
      const svg = readFileSync(file, 'utf8').match(/<svg\b[^>]*>/)?.[0] ?? '';
      const size = (name: string) => {
        const value = Number(svg.match(new RegExp(`\\s${name}="(\\d+(?:\\.\\d+)?)"`))?.[1]);
        if (!Number.isFinite(value)) throw new Error(`${file}: the <svg> element has no ${name}`);
        return value;
      };
      const image = {
        src: `/_next/static/media/${path.basename(file)}`,
        width: size('width'),
        height: size('height'),
      };
      return `export default ${JSON.stringify(image)};`;
    },
  };
}
