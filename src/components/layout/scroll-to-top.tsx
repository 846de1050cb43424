'use client';

import { usePathname } from 'next/navigation';
import { useEffect } from 'react';

/** Scrolls the window to the top on every route change (spec §2). Renders nothing. */
export function ScrollToTop() {
  const pathname = usePathname();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname]);
  return null;
}
