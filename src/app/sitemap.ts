import type { MetadataRoute } from 'next';
import { canonicalPaths } from '@/content/routes';
import { absoluteUrl } from '@/lib/seo/site-url';

/**
 * `/sitemap.xml`: every canonical URL, from the same route and module registry as the navigation.
 * No `lastModified`: the site keeps no real modification dates, and a made-up one misleads crawlers.
 */
export default function sitemap(): MetadataRoute.Sitemap {
  return canonicalPaths.map((path) => ({ url: absoluteUrl(path) }));
}
