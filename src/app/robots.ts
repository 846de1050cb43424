import type { MetadataRoute } from 'next';
import { absoluteUrl } from '@/lib/seo/site-url';

/** `/robots.txt`: every page may be crawled except the API and the operator console; points to the sitemap. */
export default function robots(): MetadataRoute.Robots {
  return {
    rules: { userAgent: '*', allow: '/', disallow: ['/api/', '/admin'] },
    sitemap: absoluteUrl('/sitemap.xml'),
  };
}
