/**
 * Reveal on scroll (spec §2: elements animate into view when they enter the viewport), without
 * React: part of the page script (src/lib/page-script.ts), which the loader of every public page
 * runs at once after `load`, before and without the framework. The `[data-reveal]` rules are in
 * src/app/globals.css; `<Reveal>` (src/components/ui/reveal.tsx) marks the elements.
 */

/** Elements not looked at yet (`""`, as the server renders them) or waiting to enter (`pending`). */
const WAITING = '[data-reveal=""], [data-reveal="pending"]';

/**
 * Drives every `[data-reveal]` element of the page. Elements already on screen when it starts stay
 * as they are, so the first paint is never hidden or delayed; elements below the fold are set to
 * `data-reveal="pending"` and animate in (`shown`) when they intersect. Elements added later (a
 * client-side navigation once the framework runs) are looked at as they come, after the router has
 * scrolled to the top, by a MutationObserver. Does nothing under `prefers-reduced-motion`.
 * @param win the page's window
 */
export function startReveal(win: Window & typeof globalThis): void {
  if (win.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const { document } = win;
  const observer = new win.IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        entry.target.setAttribute('data-reveal', 'shown');
        observer.unobserve(entry.target);
      }
    },
    { rootMargin: '0px 0px -10% 0px' },
  );
  const look = () => {
    const elements = [...document.querySelectorAll(WAITING)];
    // Every position is read before any attribute is written: interleaving them would make the
    // browser recompute style and layout once per element.
    const belowFold = elements.map(
      (element) => element.getBoundingClientRect().top >= win.innerHeight,
    );
    elements.forEach((element, index) => {
      if (belowFold[index]) {
        if (element.getAttribute('data-reveal') === 'pending') return; // observed already
        element.setAttribute('data-reveal', 'pending');
        observer.observe(element);
      } else {
        element.setAttribute('data-reveal', 'shown');
        observer.unobserve(element);
      }
    });
  };
  look();
  // Only new `data-reveal=""` elements need a look; the observer's own writes are not additions.
  new win.MutationObserver((records) => {
    if (records.some((record) => record.addedNodes.length > 0)) look();
  }).observe(document.body, { childList: true, subtree: true });
}
