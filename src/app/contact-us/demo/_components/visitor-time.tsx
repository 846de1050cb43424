'use client';

import { useSyncExternalStore } from 'react';
import { hydrateAtLoad } from '@/lib/hydrate-at-load';

const subscribe = () => () => undefined;

/**
 * The booked time in the visitor's own zone, formatted with `Intl` in the browser; an empty
 * element on the server and without JavaScript (the provider's time is shown beside it). The
 * element asks the page's loader to start the framework at `load`, so the time shows at once.
 */
export function VisitorTime({ start }: { start: string }) {
  const label = useSyncExternalStore(
    subscribe,
    () =>
      new Intl.DateTimeFormat(undefined, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
      }).format(new Date(start)),
    () => null,
  );
  return (
    <div {...hydrateAtLoad}>
      {label ? (
        <p className="mt-1" data-testid="visitor-time">
          In your time zone: <strong>{label}</strong>
        </p>
      ) : null}
    </div>
  );
}
