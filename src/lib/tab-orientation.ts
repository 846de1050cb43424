/**
 * Attribute of a tab list whose `aria-orientation` follows a media query: its value is the query
 * that makes the list vertical (the product tabs: `(min-width: 968px)`, spec §2).
 */
export const VERTICAL_QUERY_ATTRIBUTE = 'data-vertical-query';

/**
 * Keeps the `aria-orientation` of every `[data-vertical-query]` tab list in step with its query,
 * from the page script (src/lib/page-script.ts) at `load`, before and without the framework: the
 * server renders `vertical`, and only the browser knows its width. Once hydrated, the tab list's
 * component (src/app/products/product-tabs.tsx) sets the same value from the same query.
 * @param win the page's window
 */
export function followTabOrientation(win: Window & typeof globalThis): void {
  for (const list of win.document.querySelectorAll(`[${VERTICAL_QUERY_ATTRIBUTE}]`)) {
    const media = win.matchMedia(list.getAttribute(VERTICAL_QUERY_ATTRIBUTE) ?? '');
    const apply = () =>
      list.setAttribute('aria-orientation', media.matches ? 'vertical' : 'horizontal');
    apply();
    media.addEventListener('change', apply);
  }
}
