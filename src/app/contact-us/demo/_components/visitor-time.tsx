'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * The booked time in the visitor's own zone, formatted with `Intl` in the
 * browser; renders nothing on the server and without JavaScript (the provider's time is shown beside it).
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
  return label ? (
    <p className="mt-1" data-testid="visitor-time">
      In your time zone: <strong>{label}</strong>
    </p>
  ) : null;
}
