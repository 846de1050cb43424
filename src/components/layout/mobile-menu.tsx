'use client';

import { useRouter } from 'next/navigation';
import { useId, useRef } from 'react';
import { demoHref, navItems, productLinks } from '@/content/navigation';
import { ctaVariants } from '@/components/ui/cta';
import { linkPrefetch } from '@/lib/link-prefetch';
import { isActivePath } from './nav-link';
import { useDetailsMenu } from './use-details-menu';

const linkClass =
  'block rounded px-1.5 py-1 font-medium text-ink hover:bg-brand-50 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-800';

/**
 * The navigation menu below the md breakpoint (spec §2: a menu toggle opens and closes it).
 * A native `<details>` whose panel is in the server's HTML, so it opens and leads everywhere
 * without JavaScript. The toggle (`<summary>`, exposed as an expandable button) is named "Open
 * menu" or "Close menu" by CSS alone: the name of the other state is `display: none`. With
 * JavaScript, opening moves focus to the first link, and Escape, a click or a focus outside and a
 * route change close it (`useDetailsMenu`).
 * The links are plain `<a>` elements, not `next/link` components: the panel adds no component to
 * hydrate on any page. A click on one navigates through Next.js's router (modifier keys and middle
 * clicks left to the browser), and opening the menu prefetches what `next/link` would have
 * prefetched once the links came into view.
 * The two icons are drawn by the server (`SiteHeader`), so this island loads no icon code.
 *
 * @param openIcon The toggle's icon while the menu is closed.
 * @param closeIcon The toggle's icon while it is open.
 */
export function MobileMenu({
  openIcon,
  closeIcon,
}: {
  openIcon: React.ReactNode;
  closeIcon: React.ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const pathname = useDetailsMenu(ref);
  const router = useRouter();
  const panelId = useId();

  const onToggle = () => {
    const details = ref.current;
    if (!details?.open) return;
    details.querySelector<HTMLElement>('nav a')?.focus();
    for (const link of details.querySelectorAll('nav a')) {
      const href = link.getAttribute('href') ?? '';
      if (href !== pathname && linkPrefetch(href) !== false) router.prefetch(href);
    }
  };

  const onClick = (event: React.MouseEvent<HTMLElement>) => {
    const link = (event.target as Element).closest('a');
    const href = link?.getAttribute('href');
    if (!href || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (ref.current) ref.current.open = false;
    router.push(href);
  };

  const current = (href: string) => (isActivePath(pathname, href) ? 'page' : undefined);

  return (
    <details ref={ref} className="group md:hidden" onToggle={onToggle}>
      <summary className="flex size-6 list-none items-center justify-center rounded text-ink hover:bg-brand-50 [&::-webkit-details-marker]:hidden">
        <span className="contents group-open:hidden">
          <span className="sr-only">Open menu</span>
          {openIcon}
        </span>
        <span className="hidden group-open:contents">
          <span className="sr-only">Close menu</span>
          {closeIcon}
        </span>
      </summary>
      <div className="absolute inset-x-0 top-full z-40 max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-slate-200 bg-white shadow-lg">
        <nav aria-label="Main" className="mx-auto max-w-page px-2 py-2 sm:px-3" onClick={onClick}>
          <ul className="space-y-0.5">
            {navItems.map((item) =>
              item.dropdown ? (
                <li key={item.id}>
                  <p
                    id={`${panelId}-products`}
                    className="px-1.5 pt-1 pb-0.5 text-sm font-semibold tracking-wide text-muted uppercase"
                  >
                    {item.title}
                  </p>
                  <ul
                    aria-labelledby={`${panelId}-products`}
                    className="grid gap-0.5 sm:grid-cols-2"
                  >
                    {productLinks.map(({ id, title, link }) => (
                      <li key={id}>
                        <a href={link} aria-current={current(link)} className={linkClass}>
                          {title}
                        </a>
                      </li>
                    ))}
                  </ul>
                </li>
              ) : (
                <li key={item.id}>
                  <a href={item.target} aria-current={current(item.target)} className={linkClass}>
                    {item.title}
                  </a>
                </li>
              ),
            )}
          </ul>
          <a href={demoHref} className={ctaVariants({ size: 'md', className: 'mt-2 w-full' })}>
            Schedule a Demo
          </a>
        </nav>
      </div>
    </details>
  );
}
