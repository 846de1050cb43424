/**
 * The brand mark: a white cross on a green rounded square with a light-green dot, 32 × 32 units.
 * Shared by the header/footer logo and the generated share images; `src/app/icon.svg` (the
 * favicon) draws the same shapes (checked by `logo-mark.test.tsx`). Decorative: `aria-hidden`.
 *
 * @param size Width and height in px (default 32).
 */
export function LogoMark({ size = 32, className }: { size?: number; className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" width={size} height={size} className={className}>
      <rect width="32" height="32" rx="8" fill="#15803d" />
      <path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill="#fff" />
      <circle cx="24" cy="8" r="3" fill="#86efac" />
    </svg>
  );
}
