/** Default reveal duration in ms (spec §9). */
export const REVEAL_MS = 1000;

/**
 * Marks its children to fade and rise into view when they enter the viewport (spec §2, reveal).
 * A server component: reveal on scroll (src/lib/reveal.ts, in the page script the loader runs after
 * `load`) drives every `[data-reveal]`.
 * Without JavaScript, or under `prefers-reduced-motion`, the content is simply shown.
 *
 * @param duration Animation length in ms (default 1000).
 */
export function Reveal({
  duration = REVEAL_MS,
  style,
  ...props
}: React.ComponentProps<'div'> & { duration?: number }) {
  return (
    <div
      data-reveal=""
      style={{ ...style, ['--reveal-duration' as string]: `${duration}ms` }}
      {...props}
    />
  );
}
