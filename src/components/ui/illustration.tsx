/** Props of {@link Illustration}: the SVG's URL, text alternative and intrinsic size (px). */
type IllustrationProps = {
  src: string;
  /** The text alternative; `""` for a decorative image. */
  alt: string;
  width: number;
  height: number;
  /** The page's likely largest paint: fetched eagerly at high priority instead of lazily. */
  priority?: boolean;
  className?: string;
};

/**
 * One of the site's SVG illustrations (public/illustrations), as a plain `<img>` sized by its
 * `width` and `height` (px) so it reserves its box before it loads (no layout shift). next/image
 * is not used: it does not optimise SVG, and its client component would add JavaScript to every
 * page that shows one. Images are lazy unless `priority` is set.
 */
export function Illustration({ src, alt, width, height, priority = false, className }: IllustrationProps) {
  return (
    // eslint-disable-next-line @next/next/no-img-element -- vector files; see the TSDoc above.
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      decoding="async"
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      className={className}
    />
  );
}
