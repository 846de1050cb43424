import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names and resolves Tailwind conflicts (last wins). Imports nothing heavy. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
