import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names and resolves Tailwind conflicts (last wins). Imports nothing heavy.
 * For server components only: tailwind-merge is 9 KB gzipped, so client components (and what they
 * import) join their classes with `clsx` and keep their overrides free of conflicts.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
