import { notFound } from 'next/navigation';
import { modules } from '@/content/modules';
import { parseProductId } from '@/lib/product-tab';
import {
  contentType,
  MODULE_IMAGE_ID,
  moduleShareText,
  renderShareImage,
  shareImageAlt,
  size,
} from '@/components/seo/share-image';

type Props = { params: Promise<{ id: string }> };

/** The module a route id selects (spec §2: non-numeric → tab 0), or `undefined` outside 0-8. */
const moduleOf = (id: string) => {
  const index = parseProductId(id);
  return index === null ? undefined : modules[index];
};

/** One share image per module page, its alt text naming the module. */
export async function generateImageMetadata({ params }: { params: { id: string } }) {
  const entry = moduleOf(params.id);
  return entry
    ? [{ id: MODULE_IMAGE_ID, alt: shareImageAlt(moduleShareText(entry)), size, contentType }]
    : [];
}

/** Share image of `/products/{id}`: the module's name and summary (Open Graph and X card). */
export default async function Image({ params }: Props) {
  const entry = moduleOf((await params).id);
  if (!entry) notFound();
  return renderShareImage(moduleShareText(entry));
}
