import { usePathname } from 'next/navigation';
import { useEffect, useRef, type RefObject } from 'react';

/**
 * How a `<details>` menu closes once JavaScript runs (the header's Products menu and mobile menu):
 * Escape closes it and gives focus back to its `<summary>`; a pointer press or a focus outside it
 * closes it, as does a route change. Opening and closing stay native, so the menu works without
 * JavaScript and before hydration.
 *
 * @param ref The menu's `<details>` element.
 * @returns The current path (Next.js's `usePathname`, `/` when unknown), for `aria-current`.
 */
export function useDetailsMenu(ref: RefObject<HTMLDetailsElement | null>): string {
  const pathname = usePathname() ?? '/';

  // Closes on a route change, not at hydration: the scripts load after `load`, and a menu a visitor
  // opened before then stays open.
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (ref.current) ref.current.open = false;
  }, [ref, pathname]);

  useEffect(() => {
    const close = (event: PointerEvent | FocusEvent) => {
      const details = ref.current;
      if (details?.open && !details.contains(event.target as Node)) details.open = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const details = ref.current;
      if (event.key !== 'Escape' || !details?.open) return;
      details.open = false;
      details.querySelector('summary')?.focus();
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('focusin', close);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('focusin', close);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [ref]);

  return pathname;
}
