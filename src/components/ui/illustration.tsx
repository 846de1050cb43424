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
 * would add JavaScript to every page that shows one. Images are lazy unless `priority` is set
 * (eager and high-priority, with no preload hint: see below).
 */
export function Illustration({ image, alt, priority = false, className }: IllustrationProps) {
  const img = (
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
  // React turns an eager <img> into a preload hint, also in the page's RSC payload: every page
  // that prefetches this one (the logo's link to the home page) would then preload the image and
  // not use it. Inside a <picture> it gives no hint; the <img> itself, in the first round trip,
  // is found at once by the browser's preload scanner. `contents` keeps the layout of the <img>.
  return priority ? <picture className="contents">{img}</picture> : img;
}
