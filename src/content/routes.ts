import { modules } from './modules';

/** A page of the site outside the module registry: its canonical path and its title. */
export type PageRoute = {
  /** Canonical path, e.g. `/about-us`. */
  path: `/${string}`;
  /** Title as the page's `<title>` and `<h1>` name it (Home's `<title>` is the brand default). */
  title: string;
};

/**
 * The static pages of the site (spec §2 routes, plus the accessibility statement), in the order of
 * the navigation and footer. The product routes come from the module registry (`modules.ts`).
 */
export const pageRoutes = [
  { path: '/', title: 'Home' },
  { path: '/about-us', title: 'About Us' },
  { path: '/contact-us', title: 'Contact Us' },
  { path: '/terms-conditions', title: 'Terms & Conditions' },
  { path: '/privacy-policy', title: 'Privacy Policy' },
  { path: '/privacy-requests', title: 'Your data and your rights' },
  { path: '/accessibility', title: 'Accessibility Statement' },
] as const satisfies readonly PageRoute[];

/**
 * Every canonical path of the site: the static pages, then `/products/0` to `/products/8`.
 * The sitemap, `llms.txt` and the browser tests read this list. `/products` and
 * `/products/{non-numeric}` are not in it: they show tab 0 and name `/products/0` as canonical.
 */
export const canonicalPaths: readonly string[] = [
  ...pageRoutes.map(({ path }) => path),
  ...modules.map(({ link }) => link),
];

/**
 * Pages rendered on each request instead of prerendered: the contact form and the privacy-request
 * form carry a fresh form token and CSP nonce. Links to them are not prefetched (see
 * `lib/link-prefetch.ts`); the browser tests read this list.
 */
export const onDemandPaths: readonly PagePath[] = ['/contact-us', '/privacy-requests'];

/** The path of one of the static pages. */
export type PagePath = (typeof pageRoutes)[number]['path'];
