'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { clsx } from 'clsx';
import { linkPrefetch } from '@/lib/link-prefetch';

/** True when `href` is the current page or a section containing it (Home only matches `/`). */
export function isActivePath(pathname: string, href: string): boolean {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * A navigation link that marks itself `aria-current="page"` when it points at the current route.
 * A link to the page being shown is not prefetched (that would download the page's data again), nor
 * one to the contact form (`linkPrefetch`).
 */
export function NavLink({
  href,
  className,
  ...props
}: React.ComponentProps<typeof Link> & { href: string }) {
  const pathname = usePathname() ?? '/';
  const active = isActivePath(pathname, href);
  return (
    <Link
      href={href}
      prefetch={pathname === href ? false : linkPrefetch(href)}
      aria-current={active ? 'page' : undefined}
      className={clsx(className, active && 'text-brand-800')}
      {...props}
    />
  );
}
