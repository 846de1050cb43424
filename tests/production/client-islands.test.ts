// Components that only show content stay server components (docs/performance.md, "What a new
// client component must do"; DESIGN.md §14): the React Server Components payload of every
// prerendered page names, besides Next.js's own client modules, only the site's interactive
// islands. A new client component on these pages, or an icon library whose icons are client
// components (lucide-react's `Icon`), fails here instead of adding code to load and components to
// hydrate on every page view.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const distDir = path.resolve(process.env.NEXT_DIST_DIR ?? '.next');
const appDir = path.join(distDir, 'server', 'app');

/** The client components the public pages may load: each needs the browser or the route. */
const ISLANDS = [
  'src/app/products/product-tabs.tsx',
  'src/components/layout/breadcrumb-trail.tsx',
  'src/components/layout/mobile-menu.tsx',
  'src/components/layout/nav-link.tsx',
  'src/components/layout/products-menu.tsx',
  'src/components/layout/scroll-to-top.tsx',
];

/** Prerendered payloads (`<route>.rsc`) of the public pages, by path. */
const PAYLOADS: Record<string, string> = {
  '/': 'index.rsc',
  '/products': 'products.rsc',
  ...Object.fromEntries(
    Array.from({ length: 9 }, (_, index) => [`/products/${index}`, `products/${index}.rsc`]),
  ),
  '/about-us': 'about-us.rsc',
  '/terms-conditions': 'terms-conditions.rsc',
  '/privacy-policy': 'privacy-policy.rsc',
  '/accessibility': 'accessibility.rsc',
};

/** Module id → source path, from every page's client reference manifest. */
function clientModules(): Map<string, string> {
  const modules = new Map<string, string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('_client-reference-manifest.js')) {
        const text = readFileSync(file, 'utf8');
        for (const [, source, id] of text.matchAll(/"\[project\]\/([^"]+)":\{"id":(\d+)/g))
          modules.set(id!, source!.replace(/ <[^>]*>$/, ''));
      }
    }
  };
  visit(appDir);
  return modules;
}

describe.runIf(existsSync(appDir))('client components of the prerendered pages', () => {
  const modules = clientModules();

  it('are Next.js own and the site islands only: no icon, no component that only shows content', () => {
    const seen: Record<string, string[]> = {};
    for (const [route, file] of Object.entries(PAYLOADS)) {
      const payload = readFileSync(path.join(appDir, file), 'utf8');
      const ids = [...payload.matchAll(/^[0-9a-f]+:I\[(\d+),/gm)].map((match) => match[1]!);
      const sources = [...new Set(ids.map((id) => modules.get(id) ?? `unknown module ${id}`))];
      seen[route] = sources.filter((source) => !source.startsWith('node_modules/next/'));
    }
    for (const [route, sources] of Object.entries(seen)) {
      console.log(`${route}: ${sources.map((source) => path.basename(source)).join(', ')}`);
      expect(
        sources.filter((source) => !ISLANDS.includes(source)),
        route,
      ).toEqual([]);
    }
    expect(seen['/products/0']).toContain('src/app/products/product-tabs.tsx');
  });
});
