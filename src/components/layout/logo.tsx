import Link from 'next/link';
import { site } from '@/content/site';
import { LogoMark } from './logo-mark';

/**
 * The brand mark and name, linking home. Decorative mark; the link's name is the brand name.
 * Not prefetched: it is in view on every page, and on phones (where the navigation bar is folded
 * into the menu) it is the only link home in view, so it alone would download Home's data (about
 * 47 KB, the largest page) on each page view, on Home itself for nothing. A click still navigates
 * in place.
 */
export function Logo() {
  return (
    <Link
      href="/"
      prefetch={false}
      className="flex items-center gap-1 rounded font-bold tracking-tight text-ink"
    >
      <LogoMark className="shrink-0" />
      <span className="text-lg">{site.name}</span>
    </Link>
  );
}
