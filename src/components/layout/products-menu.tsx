'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { productLinks } from '@/content/navigation';

/**
 * The Products dropdown of the navigation bar (spec §2): the nine modules, each linking to
 * `/products/{index}`. A native `<details>` disclosure, so it opens without JavaScript; with it,
 * Escape closes it (focus back on the toggle), as do a click outside and a route change.
 *
 * @param chevron The toggle's chevron, drawn by the server (`SiteHeader`): this island loads no
 *   icon code. It turns when the menu is open (`group-open:` classes).
 */
export function ProductsMenu({ chevron }: { chevron: React.ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname() ?? '/';

  // Closes on a route change, not at hydration: the scripts load after `load`, and a menu a visitor
  // opened before then stays open.
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (ref.current) ref.current.open = false;
  }, [pathname]);

  useEffect(() => {
    const close = (event: PointerEvent | FocusEvent) => {
      const details = ref.current;
      if (details?.open && !details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('focusin', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('focusin', close);
    };
  }, []);

  const onKeyDown = (event: React.KeyboardEvent<HTMLDetailsElement>) => {
    const details = ref.current;
    if (event.key !== 'Escape' || !details?.open) return;
    details.open = false;
    details.querySelector('summary')?.focus();
  };

  const active = pathname === '/products' || pathname.startsWith('/products/');

  return (
    <details ref={ref} className="group relative" onKeyDown={onKeyDown}>
      <summary
        className={`flex cursor-pointer list-none items-center gap-0.5 rounded px-1 py-1 font-medium hover:text-brand-800 [&::-webkit-details-marker]:hidden ${active ? 'text-brand-800' : ''}`}
      >
        Products
        {chevron}
      </summary>
      <ul className="absolute top-full left-0 z-40 mt-1 w-[18.5rem] rounded border border-slate-200 bg-white p-1 shadow-lg">
        {productLinks.map(({ id, title, link }) => (
          <li key={id}>
            <Link
              href={link}
              prefetch={pathname === link ? false : undefined}
              aria-current={pathname === link ? 'page' : undefined}
              className="block rounded px-1.5 py-1 text-ink hover:bg-brand-50 hover:text-brand-800 aria-[current=page]:bg-brand-50 aria-[current=page]:font-semibold aria-[current=page]:text-brand-800"
            >
              {title}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
