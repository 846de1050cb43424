'use client';

import Link from 'next/link';
import { useRef } from 'react';
import { productLinks } from '@/content/navigation';
import { useDetailsMenu } from './use-details-menu';

/**
 * The Products dropdown of the navigation bar (spec §2): the nine modules, each linking to
 * `/products/{index}`. A native `<details>` disclosure, so it opens without JavaScript; with it,
 * Escape closes it (focus back on the toggle), as do a click or a focus outside and a route change
 * (`useDetailsMenu`).
 *
 * @param chevron The toggle's chevron, drawn by the server (`SiteHeader`): this island loads no
 *   icon code. It turns when the menu is open (`group-open:` classes).
 */
export function ProductsMenu({ chevron }: { chevron: React.ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const pathname = useDetailsMenu(ref);

  const active = pathname === '/products' || pathname.startsWith('/products/');

  return (
    <details ref={ref} className="group relative">
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
