import { showCurrentYear } from './current-year';
import { startReveal } from './reveal';
import { followTabOrientation } from './tab-orientation';

/**
 * The page script: what every public page needs from JavaScript before, and without, the
 * framework, which starts only on the visitor's first interaction (src/lib/page-loader.ts). The
 * loader runs it at once after `load`; `npm run build` bundles it with esbuild into
 * `/_next/static/deferred/<hash>.js` (scripts/build/beacon.ts). In the tasks that follow, it
 * reveals sections as they scroll into view (src/lib/reveal.ts), shows the visitor's year in the
 * footer (src/lib/current-year.ts) and keeps the product tabs' orientation in step with the width
 * (src/lib/tab-orientation.ts).
 * @param win the page's window
 */
export function startPageScript(win: Window & typeof globalThis): void {
  // Each in a task of its own, so that none adds to another's (docs/performance.md, "Blocking time").
  for (const step of [showCurrentYear, followTabOrientation, startReveal])
    win.setTimeout(() => step(win));
}
