import { modules } from '@/content/modules';
import { moduleShareText, renderShareImage, shareImageAlt } from '@/lib/seo/share-image';

export { size, contentType } from '@/lib/seo/share-image';

/** `/products` shows tab 0, so it shares the first module's image. */
const text = moduleShareText(modules[0]!);

export const alt = shareImageAlt(text);

/** Share image of `/products`: the first module (Open Graph and X card). */
export default function Image() {
  return renderShareImage(text);
}
