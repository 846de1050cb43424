import { addressLines } from '@/content/site';
import { cn } from '@/lib/utils';

/** The office's postal address (src/content/site.ts) as an `<address>`, one line per row. */
export function PostalAddress({ className }: { className?: string }) {
  return (
    <address className={cn('not-italic', className)}>
      {addressLines.map((line) => (
        <span key={line} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}
