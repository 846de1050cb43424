import type { StaticImageData } from 'next/image';
import designs from './illustrations/designs.svg';
import mobileApplications from './illustrations/mobile-applications.svg';
import softwares from './illustrations/softwares.svg';
import websites from './illustrations/websites.svg';

/**
 * An offering of the "What We Do" section (spec §3 "Offering entry": id, title, image).
 * Images are the site's own SVG illustrations in `src/content/illustrations/`.
 */
export type Offering = {
  id: string;
  title: string;
  /** One sentence on what the provider builds. */
  text: string;
  image: StaticImageData;
};

/** The four offerings, in the spec's order (spec §2, home). */
export const offerings = [
  {
    id: 'websites',
    title: 'Websites',
    text: 'Fast, accessible websites for hospitals and clinics that tell patients who you are and how to reach you.',
    image: websites,
  },
  {
    id: 'softwares',
    title: 'Softwares',
    text: 'Hospital information-management software: the electronic medical record with laboratory, stock, billing and reporting.',
    image: softwares,
  },
  {
    id: 'mobile-applications',
    title: 'Mobile Applications',
    text: 'Mobile applications that take registration, documents and records to the bedside and the ward.',
    image: mobileApplications,
  },
  {
    id: 'designs',
    title: 'Designs',
    text: 'Clear interface and service design, shaped around the daily work of clinicians, nurses and staff.',
    image: designs,
  },
] as const satisfies readonly Offering[];
