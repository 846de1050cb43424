/** Number of product tabs (spec §9). */
export const PRODUCT_TAB_COUNT = 9;

/**
 * Parses the `{id}` of `/products/{id}` into a tab index (spec §2, product page).
 *
 * @param id The route segment, or `undefined` for `/products`.
 * @returns The tab index 0-8: the id itself when it is an integer 0-8 (`"03"` is 3); 0 when the id
 *   is missing or non-numeric (`"abc"`); `null` when it is a number outside 0-8 (`"9"`, `"-1"`,
 *   `"1.5"`), which the route answers with 404.
 */
export function parseProductId(id: string | undefined): number | null {
  if (id === undefined) return 0;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(id)) return 0;
  const n = Number(id);
  return Number.isInteger(n) && n >= 0 && n < PRODUCT_TAB_COUNT ? n : null;
}

/** Width in px from which the tabs stand vertically (spec §9: horizontal below 968 px). */
export const VERTICAL_TABS_MIN_WIDTH = 968;

/** DOM id of tab `index`, referenced by the panel's `aria-labelledby`. */
export const productTabId = (index: number) => `product-tab-${index}`;

/** DOM id of the product panel, referenced by each tab's `aria-controls`. */
export const PRODUCT_PANEL_ID = 'product-panel';
