'use client';

import Link from 'next/link';
import { useParams } from 'next/navigation';
import { useRef, useSyncExternalStore } from 'react';
import { productLinks } from '@/content/navigation';
import {
  parseProductId,
  PRODUCT_PANEL_ID,
  productTabId,
  VERTICAL_TABS_MIN_WIDTH,
} from '@/lib/product-tab';
import { VERTICAL_QUERY_ATTRIBUTE } from '@/lib/tab-orientation';
import { clsx } from 'clsx';

const query = `(min-width: ${VERTICAL_TABS_MIN_WIDTH}px)`;
const subscribe = (onChange: () => void) => {
  const media = window.matchMedia(query);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
};

/**
 * The nine module tabs (spec §2, product page). Each tab is a link to `/products/{i}`, so the
 * selected tab follows the route (client navigation once the framework runs). Vertical from 968 px,
 * horizontal below (CSS, `tabs:` breakpoint; `aria-orientation` from the page script at `load`,
 * src/lib/tab-orientation.ts, then from this component). Arrow keys, Home and End move focus
 * between tabs; Enter opens one.
 */
export function ProductTabs() {
  const params = useParams<{ id?: string }>();
  const selected = parseProductId(params.id) ?? 0;
  const vertical = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => true,
  );
  const listRef = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    const tabs = [...(listRef.current?.querySelectorAll<HTMLElement>('[role="tab"]') ?? [])];
    const current = tabs.indexOf(document.activeElement as HTMLElement);
    if (current < 0) return;
    const last = tabs.length - 1;
    const next = {
      ArrowRight: current === last ? 0 : current + 1,
      ArrowDown: current === last ? 0 : current + 1,
      ArrowLeft: current === 0 ? last : current - 1,
      ArrowUp: current === 0 ? last : current - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    tabs[next]?.focus();
  };

  return (
    <div
      ref={listRef}
      role="tablist"
      aria-label="Modules"
      aria-orientation={vertical ? 'vertical' : 'horizontal'}
      // The page script keeps the orientation in step with the width before the framework starts.
      {...{ [VERTICAL_QUERY_ATTRIBUTE]: query }}
      suppressHydrationWarning
      onKeyDown={onKeyDown}
      className="-mx-2 flex min-w-0 snap-x gap-0.5 overflow-x-auto border-b border-slate-200 px-2 pb-px sm:-mx-3 sm:px-3 tabs:mx-0 tabs:flex-col tabs:gap-0.5 tabs:overflow-visible tabs:border-b-0 tabs:border-l tabs:px-0 tabs:pb-0"
    >
      {productLinks.map(({ id, title, link }) => {
        const active = id === selected;
        return (
          <Link
            key={id}
            id={productTabId(id)}
            href={link}
            prefetch={active ? false : undefined}
            role="tab"
            aria-selected={active}
            aria-controls={PRODUCT_PANEL_ID}
            tabIndex={active ? 0 : -1}
            className={clsx(
              'shrink-0 snap-start border-b-2 px-1.5 py-1 font-medium whitespace-nowrap transition-colors tabs:-ml-px tabs:border-b-0 tabs:border-l-2 tabs:py-1 tabs:whitespace-normal',
              active
                ? 'border-brand-700 text-brand-800 tabs:bg-brand-50'
                : 'border-transparent text-slate-700 hover:border-slate-300 hover:text-ink',
            )}
          >
            {title}
          </Link>
        );
      })}
    </div>
  );
}
