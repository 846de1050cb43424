import type { StaticImageData } from 'next/image';

/** Props of {@link Illustration}: the imported SVG, its text alternative and options. */
type IllustrationProps = {
  /** The SVG imported from `src/content/illustrations`: its hashed URL and intrinsic size (px). */
  image: StaticImageData;
  /** The text alternative; `""` for a decorative image. */
  alt: string;
  /** The page's likely largest paint: fetched eagerly at high priority instead of lazily. */
  priority?: boolean;
  className?: string;
};

/**
 * One of the site's SVG illustrations (src/content/illustrations), as a plain `<img>` sized by the
 * file's own `width` and `height` (px) so it reserves its box before it loads (no layout shift).
 * Imported, the file is served from `/_next/static/media/` under a content-hashed name, cached as
 * immutable for a year. next/image is not used: it does not optimise SVG, and its client component
 * would add JavaScript to every page that shows one. Images are lazy unless `priority` is set.
 */
export function Illustration({ image, alt, priority = false, className }: IllustrationProps) {
  return (
    // eslint-disable-next-line @next/next/no-img-element -- vector files; see the TSDoc above.
    <img
      src={image.src}
      alt={alt}
      width={image.width}
      height={image.height}
      decoding="async"
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      className={className}
    />
  );
}
