'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * The current calendar year, correct at request time (spec §2, copyright line). The prerendered
 * HTML carries the year of the build (pages are static); the browser then shows its
 * own clock's year, so a page cached across New Year is never stale for a visitor.
 *
 * @param renderedYear Year of the server render, used until the page is hydrated.
 */
export function CurrentYear({ renderedYear }: { renderedYear: number }) {
  const year = useSyncExternalStore(
    subscribe,
    () => new Date().getFullYear(),
    () => renderedYear,
  );
  return <>{year}</>;
}
