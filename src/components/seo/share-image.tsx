import 'server-only';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ImageResponse } from 'next/og';
import { serverRoot } from '@/lib/server-root';
import { LogoMark } from '@/components/layout/logo-mark';
import type { Module } from '@/content/modules';
import { pageRoutes, type PagePath } from '@/content/routes';
import { site } from '@/content/site';

/** Size of the share images in px: the 1.91:1 card Open Graph and X (Twitter) recommend. */
export const size = { width: 1200, height: 630 };

/** MIME type of the share images. */
export const contentType = 'image/png';

/** Inter 400 and 700, static WOFF from `@fontsource/inter` (ImageResponse reads no WOFF2); read once. */
let fonts:
  Promise<{ name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[]> | undefined;
function loadFonts() {
  const file = (weight: 400 | 700) =>
    join(
      /* turbopackIgnore: true */ serverRoot,
      'node_modules/@fontsource/inter/files',
      `inter-latin-${weight}-normal.woff`,
    );
  fonts ??= Promise.all(
    ([400, 700] as const).map(async (weight) => ({
      name: 'Inter',
      data: await readFile(file(weight)),
      weight,
      style: 'normal' as const,
    })),
  );
  return fonts;
}

/** What one share image says. */
export type ShareImageText = {
  /** Small line above the title, e.g. "Nirmaya HIMS module". */
  eyebrow: string;
  /** The page's or module's name, large. */
  title: string;
  /** One or two sentences under the title. */
  text: string;
};

/** Alt text of a share image: its title and eyebrow, e.g. "Laboratory: Nirmaya HIMS module". */
export const shareImageAlt = ({ eyebrow, title }: Pick<ShareImageText, 'eyebrow' | 'title'>) =>
  `${title}: ${eyebrow}`;

/**
 * Renders the Open Graph / X share image of a page (PNG, {@link size}) in the site's look: the
 * brand mark and name, the eyebrow, the title and a short text on the light grey-green surface,
 * with a green accent band. Fonts come from the local package: no network.
 *
 * @throws Error when the Inter font files are missing from `node_modules`.
 */
export async function renderShareImage({
  eyebrow,
  title,
  text,
}: ShareImageText): Promise<ImageResponse> {
  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        background: '#f3f7f5',
        borderBottom: '16px solid #15803d',
        padding: '64px 80px 56px',
        fontFamily: 'Inter',
        color: '#0f172a',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 20 }}>
        <LogoMark size={64} />
        <span style={{ fontSize: 36, fontWeight: 700, letterSpacing: '-0.02em' }}>{site.name}</span>
      </div>
      <div style={{ display: 'flex', flexDirection: 'column' }}>
        <span
          style={{
            fontSize: 28,
            fontWeight: 700,
            color: '#166534',
            textTransform: 'uppercase',
            letterSpacing: '0.04em',
          }}
        >
          {eyebrow}
        </span>
        <span
          style={{
            marginTop: 12,
            fontSize: 76,
            fontWeight: 700,
            lineHeight: 1.1,
            letterSpacing: '-0.03em',
          }}
        >
          {title}
        </span>
        <span
          style={{
            marginTop: 24,
            fontSize: 30,
            lineHeight: 1.4,
            color: '#334155',
            maxWidth: 1000,
            lineClamp: 3,
          }}
        >
          {text}
        </span>
      </div>
    </div>,
    { ...size, fonts: await loadFonts() },
  );
}

/**
 * What the share image of a static page says: the product as eyebrow, the page's title from the
 * route registry, the site's tagline.
 *
 * @param path A path of `pageRoutes` (Home has its own image and is excluded).
 */
export function pageShareText(path: Exclude<PagePath, '/'>): ShareImageText {
  const route = pageRoutes.find((entry) => entry.path === path);
  if (!route) throw new RangeError(`No page route ${path}`);
  return { eyebrow: site.product, title: route.title, text: site.tagline };
}

/** `id` of the one share image of each module page, in its URL `/products/{id}/opengraph-image/card`. */
export const MODULE_IMAGE_ID = 'card';

/**
 * The URL path and alt text of a module page's share image, for routes that show the module
 * without a share image of their own (`/products`).
 */
export function moduleShareImage(entry: Pick<Module, 'link' | 'title' | 'summary'>) {
  return {
    url: `${entry.link}/opengraph-image/${MODULE_IMAGE_ID}`,
    alt: shareImageAlt(moduleShareText(entry)),
  };
}

/**
 * What the share image of a module's page says: "Nirmaya HIMS module", the module's name and its
 * one-line summary.
 *
 * @param entry The module from the registry.
 */
export function moduleShareText(entry: Pick<Module, 'title' | 'summary'>): ShareImageText {
  return { eyebrow: `${site.product} module`, title: entry.title, text: entry.summary };
}
