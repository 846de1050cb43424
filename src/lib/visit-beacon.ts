/**
 * The visit beacon: a small script (no React) that the loader of every public page runs first once
 * the page has loaded (src/lib/page-loader.ts). `npm run build` bundles it with esbuild into
 * `/_next/static/deferred/<hash>.js` (scripts/build/beacon.ts).
 */
import { tabSource, visitSourceFields, type VisitSource } from './visit-source';

/** The beacon endpoint (src/app/api/v/route.ts). */
export const BEACON_PATH = '/api/v';

/** Whether the visitor asked not to be tracked (Do-Not-Track or Global Privacy Control). */
export function optedOut(nav: Navigator): boolean {
  return (
    nav.doNotTrack === '1' ||
    (nav as { globalPrivacyControl?: boolean }).globalPrivacyControl === true
  );
}

/** The tab's `sessionStorage`, or `null` where the browser refuses it. */
function storageOf(win: Window): Storage | null {
  try {
    return win.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Counts each page seen, without cookies (docs/operations.md, "Visits and sources"): in the tasks
 * that follow its start (the loader runs it after `load`, never before the largest paint) and on
 * every client-side navigation after (Next.js's router calls `history.pushState`, watched here as
 * Plausible's script does, and `popstate`), `navigator.sendBeacon` posts the path and the tab's source (its first page, referring
 * site and UTM tags, kept in `sessionStorage`) to {@link BEACON_PATH}, once per path change. It also
 * fills the contact form's hidden source fields with that source: their values at once, and the
 * posted entries (`formdata` event) since React's hydration sets the inputs back to the server's
 * values. Nothing happens in the console (`/admin`) nor when the visitor has Do-Not-Track or Global
 * Privacy Control on.
 * @param win the page's window
 */
export function startVisitBeacon(win: Window): void {
  const { document, history, location, navigator } = win;
  if (optedOut(navigator)) return;
  const source = (): VisitSource =>
    tabSource(storageOf(win), new URL(location.href), document.referrer);
  let last: string | null = null;

  const seen = () => {
    const path = location.pathname;
    if (path === last || path.startsWith('/admin')) return;
    last = path;
    const sent = source();
    for (const field of visitSourceFields)
      for (const input of document.querySelectorAll<HTMLInputElement>(
        `input[type="hidden"][name="${field}"]`,
      ))
        input.value = sent[field] ?? '';
    // The tab's first storage access and its first beacon each cost a cold browser several ms:
    // in tasks of their own, neither makes a long task (docs/performance.md, "Blocking time").
    win.setTimeout(() => {
      if (navigator.sendBeacon)
        navigator.sendBeacon(BEACON_PATH, JSON.stringify({ path, ...sent }));
    });
  };

  document.addEventListener('formdata', (event) => {
    const { formData } = event as FormDataEvent;
    const sent = source();
    for (const field of visitSourceFields)
      if (formData.has(field)) formData.set(field, sent[field] ?? '');
  });

  const pushState = history.pushState;
  history.pushState = function (...args: Parameters<History['pushState']>) {
    pushState.apply(this, args);
    seen();
  };
  win.addEventListener('popstate', seen);
  win.setTimeout(seen);
}
