import { home } from '@/content/home';
import { site } from '@/content/site';
import { renderShareImage, shareImageAlt, type ShareImageText } from '@/components/seo/share-image';

export { size, contentType } from '@/components/seo/share-image';

const text: ShareImageText = {
  eyebrow: site.product,
  title: home.hero.heading,
  text: site.description,
};

export const alt = shareImageAlt(text);

/** Share image of Home (Open Graph and X card). */
export default function Image() {
  return renderShareImage(text);
}
