import { cn } from '@/lib/utils';

/**
 * A page section with the site's content width (lg, 1200 px) and vertical rhythm.
 * `tone="surface"` gives the grey-green band used to separate sections.
 */
export function Section({
  tone = 'plain',
  className,
  children,
  ...props
}: React.ComponentProps<'section'> & { tone?: 'plain' | 'surface' }) {
  return (
    <section
      className={cn(tone === 'surface' && 'bg-surface', 'py-6 md:py-8', className)}
      {...props}
    >
      <div className="mx-auto max-w-page px-2 sm:px-3">{children}</div>
    </section>
  );
}

/** A section's heading block: an h2 and an optional lead paragraph. */
export function SectionHeading({ id, title, lead }: { id: string; title: string; lead?: string }) {
  return (
    <div className="max-w-3xl">
      <h2 id={id} className="text-3xl sm:text-4xl">
        {title}
      </h2>
      {lead && <p className="mt-1.5 text-lg text-slate-700">{lead}</p>}
    </div>
  );
}
