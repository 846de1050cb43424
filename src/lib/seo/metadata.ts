import type { Metadata } from 'next';
import { site } from '@/content/site';

/**
 * Metadata of one route: title (the root layout's template makes it "Title | Brand"; omitted on
 * Home, which keeps the layout's default), description, canonical URL and the Open Graph tags.
 * Relative URLs resolve against the root layout's `metadataBase` (`SITE_URL`). The Twitter card
 * (`summary_large_image`) and both share images are filled in by Next.js from the Open Graph tags
 * and the route's `opengraph-image.tsx`.
 *
 * @param path The canonical route, e.g. `/products/3` (also for non-canonical variants such as
 *   `/products`, which name `/products/0`).
 */
export function pageMetadata({
  title,
  description,
  path,
  image,
}: {
  title?: string;
  description: string;
  path: string;
  /** A share image of another route (e.g. the canonical page's), used when the route has no `opengraph-image` of its own. */
  image?: { url: string; alt: string };
}): Metadata {
  return {
    ...(title === undefined ? {} : { title }),
    description,
    alternates: { canonical: path },
    openGraph: {
      type: 'website',
      siteName: site.name,
      locale: 'en_IN',
      url: path,
      ...(title === undefined ? {} : { title }),
      description,
      ...(image ? { images: [{ ...image, width: 1200, height: 630, type: 'image/png' }] } : {}),
    },
  };
}
