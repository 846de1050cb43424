import type { Metadata } from 'next';

/**
 * Metadata of one route: title (the root layout's template makes it "Title | Brand"), description
 * and canonical path. `path` is the canonical route, e.g. `/products/3`.
 */
export function pageMetadata({
  title,
  description,
  path,
}: {
  title: string;
  description: string;
  path: string;
}): Metadata {
  return { title, description, alternates: { canonical: path } };
}
