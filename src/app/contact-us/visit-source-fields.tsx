'use client';

import { useEffect, useState } from 'react';
import { optedOut } from '@/components/layout/visit-beacon';
import { tabSource, visitSourceFields, type VisitSource } from '@/lib/visit-source';

/**
 * The visit's source as hidden fields of the contact form: first what the page itself knew
 * (`initial`, from the server: works without JavaScript), then, in the browser, the tab's source
 * the beacon kept (its first page, referring site and UTM tags), unless the visitor has
 * Do-Not-Track or Global Privacy Control on.
 */
export function VisitSourceFields({ initial }: { initial: VisitSource }) {
  const [source, setSource] = useState(initial);
  useEffect(() => {
    if (optedOut()) return;
    let storage: Storage | null = null;
    try {
      storage = sessionStorage;
    } catch {
      // no storage: the page's own source stays
    }
    // Reading the browser's storage is only possible after hydration.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setSource(tabSource(storage, new URL(location.href), document.referrer));
  }, []);
  return visitSourceFields.map((field) =>
    source[field] ? <input key={field} type="hidden" name={field} value={source[field]} /> : null,
  );
}
