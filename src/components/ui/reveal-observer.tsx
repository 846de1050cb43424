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
    const elements = [...document.querySelectorAll('[data-reveal=""], [data-reveal="pending"]')];
    // Every position is read before any attribute is written: interleaving them would make the
    // browser recompute style and layout once per element during hydration.
    const belowFold = elements.map(
      (element) => element.getBoundingClientRect().top >= window.innerHeight,
    );
    elements.forEach((element, index) => {
      if (belowFold[index]) {
        element.setAttribute('data-reveal', 'pending');
        observer.observe(element);
      } else if (element.getAttribute('data-reveal') === 'pending') {
        element.setAttribute('data-reveal', 'shown');
      }
    });
    return () => observer.disconnect();
  }, [pathname]);
  return null;
}
