import { parseProductId } from '@/lib/product-tab';

/** Where a product URL that `next build` did not prerender is served from. */
export type ProductAlias = { kind: 'module'; path: string } | { kind: 'not-found' };

/**
 * `/products/{id}` accepts any spelling of an id (`03`, `abc`, `9`: spec §2). Only `/products/0`
 * to `/products/8` are prerendered; rendering the others on demand would cache their HTML with the
 * nonce of the first request, which later visitors' policies would not allow. So the proxy serves
 * them from the prerendered page they show: `/products/03` -> `/products/3`, `/products/abc` ->
 * `/products/0`, and a number outside 0-8 -> the 404 page. `null` for any other path.
 */
export function productAlias(pathname: string): ProductAlias | null {
  const match = /^\/products\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  let id: string;
  try {
    id = decodeURIComponent(match[1]);
  } catch {
    return { kind: 'module', path: '/products/0' };
  }
  const index = parseProductId(id);
  return index === null ? { kind: 'not-found' } : { kind: 'module', path: `/products/${index}` };
}
