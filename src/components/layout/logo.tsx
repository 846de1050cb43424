import Link from 'next/link';
import { site } from '@/content/site';

/** The brand mark and name, linking home. Decorative mark; the link's name is the brand name. */
export function Logo() {
  return (
    <Link href="/" className="flex items-center gap-1 rounded font-bold tracking-tight text-ink">
      <svg aria-hidden="true" viewBox="0 0 32 32" width="32" height="32" className="shrink-0">
        <rect width="32" height="32" rx="8" fill="#15803d" />
        <path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill="#fff" />
        <circle cx="24" cy="8" r="3" fill="#86efac" />
      </svg>
      <span className="text-lg">{site.name}</span>
    </Link>
  );
}
