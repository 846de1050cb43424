import Link from 'next/link';
import { cva, type VariantProps } from 'class-variance-authority';
import { linkPrefetch } from '@/lib/link-prefetch';

/**
 * Call-to-action styles (spec §9): a size class, 8 px radius (`rounded-cta`), scale 0.9 on press.
 * `intent` picks the filled green button or the outlined one. Client components import this
 * module, so a `className` is appended by cva, not merged with `cn` (which stays out of the
 * browser bundle): it must not set what the variants set; hide with a variant (`max-sm:hidden`).
 */
export const ctaVariants = cva(
  'inline-flex items-center justify-center gap-1 rounded-cta font-semibold whitespace-nowrap transition-[transform,background-color,color] duration-150 select-none active:scale-90 disabled:pointer-events-none disabled:opacity-60',
  {
    variants: {
      intent: {
        primary: 'bg-brand-700 text-white shadow-sm hover:bg-brand-800',
        secondary: 'border border-brand-700 bg-white text-brand-800 hover:bg-brand-50',
        inverse: 'bg-white text-brand-800 shadow-sm hover:bg-brand-50',
      },
      size: {
        sm: 'min-h-5 px-2 text-sm',
        md: 'min-h-6 px-3 text-base',
        lg: 'min-h-7 px-4 text-lg',
      },
    },
    defaultVariants: { intent: 'primary', size: 'md' },
  },
);

export type CtaVariants = VariantProps<typeof ctaVariants>;

/** A call-to-action `<button>`; takes the button's props plus `intent` and `size`. */
export function CtaButton({
  className,
  intent,
  size,
  ...props
}: React.ComponentProps<'button'> & CtaVariants) {
  return <button className={ctaVariants({ intent, size, className })} {...props} />;
}

/**
 * A call-to-action link (Next.js `<Link>`); takes the link's props (`href` a string) plus `intent`
 * and `size`. Links to the contact form are not prefetched (`linkPrefetch`).
 */
export function CtaLink({
  className,
  intent,
  size,
  href,
  ...props
}: React.ComponentProps<typeof Link> & CtaVariants & { href: string }) {
  return (
    <Link
      href={href}
      prefetch={linkPrefetch(href)}
      className={ctaVariants({ intent, size, className })}
      {...props}
    />
  );
}
