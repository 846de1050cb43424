'use client';

import { usePathname } from 'next/navigation';
import { useEffect } from 'react';

/**
 * Drives every `[data-reveal]` element of the page (spec §2, reveal on entering the viewport).
 * Elements already on screen when the page becomes interactive stay as they are, so the first paint
 * is never hidden or delayed; elements below the fold are set to `data-reveal="pending"` and animate
 * in when they intersect. Re-runs after each route change. Renders nothing.
 */
export function RevealObserver() {
  const pathname = usePathname();
  useEffect(() => {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          entry.target.setAttribute('data-reveal', 'shown');
          observer.unobserve(entry.target);
        }
      },
      { rootMargin: '0px 0px -10% 0px' },
    );
    for (const element of document.querySelectorAll('[data-reveal=""], [data-reveal="pending"]')) {
      if (element.getBoundingClientRect().top < window.innerHeight) {
        if (element.getAttribute('data-reveal') === 'pending') element.setAttribute('data-reveal', 'shown');
        continue;
      }
      element.setAttribute('data-reveal', 'pending');
      observer.observe(element);
    }
    return () => observer.disconnect();
  }, [pathname]);
  return null;
}
