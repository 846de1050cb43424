import { site } from './site';

/** Text of the product page banner (spec §2, product page). */
export const products = {
  heading: 'Nine modules for the whole hospital',
  lead: `Each module of ${site.product} covers one part of the hospital's work, around one electronic medical record. Choose a module to see what it does.`,
} as const;
