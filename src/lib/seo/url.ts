/**
 * Resolves a site path against the site's base URL, keeping any sub-path of the base:
 * `('/products/3', 'https://example.org/')` → `https://example.org/products/3`.
 * Pure and dependency-free, so client components can use it with a base passed from the server.
 *
 * @param path A path starting with `/`.
 * @param base The site URL (`SITE_URL`), ending in `/`.
 */
export function resolveSitePath(path: string, base: string | URL): string {
  return new URL(path.replace(/^\/+/, ''), base).href;
}
