import type { Metadata, Viewport } from 'next';
import localFont from 'next/font/local';
import { Breadcrumbs } from '@/components/layout/breadcrumbs';
import { ScrollToTop } from '@/components/layout/scroll-to-top';
import { SiteFooter } from '@/components/layout/site-footer';
import { SiteHeader } from '@/components/layout/site-header';
import { site } from '@/content/site';
import { siteUrl } from '@/lib/seo/site-url';
import './globals.css';

/**
 * Inter, self-hosted and preloaded: @fontsource-variable/inter's latin file cut to weights 400-700
 * and the characters the site writes (21 KB instead of 48 KB; made by scripts/subset-font.sh).
 */
const inter = localFont({
  src: './fonts/inter-wght-400-700.woff2',
  variable: '--font-inter',
  display: 'swap',
  weight: '400 700',
});

// Pages are fully static (no `revalidate`): src/proxy.ts allows each page's inline scripts by their
// hashes in the HTML `next build` wrote, and an ISR re-render produces different inline scripts.
// The footer's year is kept current in the browser by <CurrentYear>.

export const metadata: Metadata = {
  metadataBase: siteUrl(),
  title: {
    default: `${site.product}: hospital information management | ${site.name}`,
    template: `%s | ${site.name}`,
  },
  description: site.description,
  applicationName: site.name,
};

export const viewport: Viewport = {
  themeColor: '#15803d',
  width: 'device-width',
  initialScale: 1,
};

/** The HTML shell of every page: skip link, header, breadcrumb, main content, footer. */
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" className={inter.variable}>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded bg-white px-2 py-1 font-semibold text-brand-800 shadow focus:not-sr-only focus:fixed focus:top-1 focus:left-1"
        >
          Skip to main content
        </a>
        <SiteHeader />
        <Breadcrumbs siteUrl={siteUrl().href} />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        <SiteFooter />
        <ScrollToTop />
        <noscript>
          {/* Counts a page seen without JavaScript (its path and UTM tags from the Referer). */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src="/api/v" alt="" width={1} height={1} className="absolute" />
        </noscript>
      </body>
    </html>
  );
}
