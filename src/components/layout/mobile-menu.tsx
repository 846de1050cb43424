'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import { demoHref, navItems, productLinks } from '@/content/navigation';
import { CtaLink } from '@/components/ui/cta';
import { NavLink } from './nav-link';

/**
 * The navigation menu below the md breakpoint (spec §2: a menu toggle opens and closes it).
 * A labelled button with `aria-expanded`; opening moves focus into the menu, Escape closes it and
 * returns focus to the button; a route change or a click outside closes it.
 * The panel is rendered only while open: every page (at every width) would otherwise carry and
 * hydrate its thirteen links for nothing. Without JavaScript the footer links are the way around.
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
  const [open, setOpen] = useState(false);
  const pathname = usePathname() ?? '/';
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  // Close on navigation: remember the path the menu was opened on.
  const [openedOn, setOpenedOn] = useState(pathname);
  if (open && openedOn !== pathname) setOpen(false);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target))
        setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  const linkClass =
    'block rounded px-1.5 py-1 font-medium text-ink hover:bg-brand-50 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-800';

  return (
    <div className="md:hidden">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={open ? 'Close menu' : 'Open menu'}
        onClick={() => {
          setOpenedOn(pathname);
          setOpen((value) => !value);
        }}
        className="flex size-6 items-center justify-center rounded text-ink hover:bg-brand-50"
      >
        {open ? closeIcon : openIcon}
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          className="absolute inset-x-0 top-full z-40 max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-slate-200 bg-white shadow-lg"
        >
          <nav aria-label="Main" className="mx-auto max-w-page px-2 py-2 sm:px-3">
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
                          <NavLink href={link} className={linkClass}>
                            {title}
                          </NavLink>
                        </li>
                      ))}
                    </ul>
                  </li>
                ) : (
                  <li key={item.id}>
                    <NavLink href={item.target} className={linkClass}>
                      {item.title}
                    </NavLink>
                  </li>
                ),
              )}
            </ul>
            <CtaLink href={demoHref} size="md" className="mt-2 w-full">
              Schedule a Demo
            </CtaLink>
          </nav>
        </div>
      )}
    </div>
  );
}
