import Link from 'next/link';
import { site } from '@/content/site';
import { LogoMark } from './logo-mark';

/** The brand mark and name, linking home. Decorative mark; the link's name is the brand name. */
export function Logo() {
  return (
    <Link href="/" className="flex items-center gap-1 rounded font-bold tracking-tight text-ink">
      <LogoMark className="shrink-0" />
      <span className="text-lg">{site.name}</span>
    </Link>
  );
}
