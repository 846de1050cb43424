'use client';

import { usePathname } from 'next/navigation';
import { useEffect } from 'react';
import { tabSource } from '@/lib/visit-source';

/** The beacon endpoint (src/app/api/v/route.ts). */
export const BEACON_PATH = '/api/v';

/** Whether the visitor asked not to be tracked (Do-Not-Track or Global Privacy Control). */
export function optedOut(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}

/** Runs `send` once the page has loaded (never before its largest paint). */
function afterLoad(send: () => void): () => void {
  if (document.readyState === 'complete') {
    const timer = setTimeout(send);
    return () => clearTimeout(timer);
  }
  const onLoad = () => setTimeout(send);
  addEventListener('load', onLoad, { once: true });
  return () => removeEventListener('load', onLoad);
}

/**
 * Counts each page seen, without cookies (docs/operations.md, "Visits and sources"): once the page
 * has loaded, and on every route change after, `navigator.sendBeacon` posts the path and the
 * tab's source (its first page, referring site and UTM tags, kept in `sessionStorage` for the
 * contact form too) to {@link BEACON_PATH}. Nothing is sent from the console, nor when the visitor
 * has Do-Not-Track or Global Privacy Control on. Renders nothing.
 */
export function VisitBeacon() {
  const pathname = usePathname();
  useEffect(() => {
    if (!pathname || pathname.startsWith('/admin') || optedOut() || !navigator.sendBeacon) return;
    return afterLoad(() => {
      const source = tabSource(
        (() => {
          try {
            return sessionStorage;
          } catch {
            return null;
          }
        })(),
        new URL(location.href),
        document.referrer,
      );
      navigator.sendBeacon(BEACON_PATH, JSON.stringify({ path: pathname, ...source }));
    });
  }, [pathname]);
  return null;
}
