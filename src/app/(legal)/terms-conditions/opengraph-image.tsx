import { pageShareText, renderShareImage, shareImageAlt } from '@/lib/seo/share-image';

export { size, contentType } from '@/lib/seo/share-image';

const text = pageShareText('/terms-conditions');

export const alt = shareImageAlt(text);

/** Share image of Terms & Conditions (Open Graph and X card). */
export default function Image() {
  return renderShareImage(text);
}
