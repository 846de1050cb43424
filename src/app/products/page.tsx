import { JsonLd } from '@/components/seo/json-ld';
import { modules } from '@/content/modules';
import { pageMetadata } from '@/lib/seo/metadata';
import { moduleShareImage } from '@/components/seo/share-image';
import { siteUrl } from '@/lib/seo/site-url';
import { softwareApplicationJsonLd } from '@/lib/seo/structured-data';
import { ProductPanel } from './product-panel';

/** Canonical page and share image are those of tab 0, which `/products` shows. */
export const metadata = pageMetadata({
  title: 'Products',
  description: `The nine modules of the hospital information-management system: ${modules.map((m) => m.title).join(', ')}.`,
  path: modules[0]!.link,
  image: moduleShareImage(modules[0]!),
});

/** `/products`: a missing id selects tab 0 (spec §2). */
export default function ProductsPage() {
  return (
    <>
      <JsonLd data={softwareApplicationJsonLd(modules[0]!, siteUrl())} />
      <ProductPanel index={0} />
    </>
  );
}
