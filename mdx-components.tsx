import type { MDXComponents } from 'mdx/types';

/** Maps MDX elements to the site's typography for the legal pages (DESIGN.md §3). */
export function useMDXComponents(components: MDXComponents): MDXComponents {
  return { ...components };
}
