import type { MetadataRoute } from 'next';
import { site } from '@/content/site';

/**
 * The web app manifest (`/manifest.webmanifest`): name, colours and icons, so a saved shortcut
 * shows the brand. Theme colour is the accent green of the root layout's viewport.
 */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: `${site.product} by ${site.name}`,
    short_name: site.name,
    description: site.description,
    start_url: '/',
    display: 'browser',
    background_color: '#ffffff',
    theme_color: '#15803d',
    lang: 'en',
    icons: [
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
      { src: '/apple-icon', sizes: '180x180', type: 'image/png' },
    ],
  };
}
