import { pageShareText, renderShareImage, shareImageAlt } from '@/components/seo/share-image';

export { size, contentType } from '@/components/seo/share-image';

const text = pageShareText('/accessibility');

export const alt = shareImageAlt(text);

/** Share image of the Accessibility Statement (Open Graph and X card). */
export default function Image() {
  return renderShareImage(text);
}
