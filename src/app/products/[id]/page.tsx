import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { JsonLd } from '@/components/seo/json-ld';
import { modules } from '@/content/modules';
import { parseProductId } from '@/lib/product-tab';
import { pageMetadata } from '@/lib/seo/metadata';
import { siteUrl } from '@/lib/seo/site-url';
import { softwareApplicationJsonLd } from '@/lib/seo/structured-data';
import { ProductPanel } from '../product-panel';

type Props = { params: Promise<{ id: string }> };

/** Prerenders `/products/0` to `/products/8`; other ids render on demand. */
export function generateStaticParams() {
  return modules.map(({ id }) => ({ id: String(id) }));
}

/** Title and description of the selected module; canonical URL is its `/products/{index}`. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const index = parseProductId((await params).id);
  const entry = index === null ? undefined : modules[index];
  if (!entry) return {};
  return pageMetadata({ title: entry.title, description: entry.summary, path: entry.link });
}

/**
 * `/products/{id}` (spec §2): 0-8 selects that tab; a non-numeric id selects tab 0; a number
 * outside 0-8 is answered with the 404 page. The module is described as JSON-LD too.
 */
export default async function ProductPage({ params }: Props) {
  const index = parseProductId((await params).id);
  const entry = index === null ? undefined : modules[index];
  if (index === null || !entry) notFound();
  return (
    <>
      <JsonLd data={softwareApplicationJsonLd(entry, siteUrl())} />
      <ProductPanel index={index} />
    </>
  );
}
