/**
 * An offering of the "What We Do" section (spec §3 "Offering entry": id, title, image).
 * Images are the site's own SVG illustrations in `public/illustrations/`.
 */
export type Offering = {
  id: string;
  title: string;
  /** One sentence on what the provider builds. */
  text: string;
  image: { src: string; width: number; height: number };
};

/** The four offerings, in the spec's order (spec §2, home). */
export const offerings = [
  {
    id: 'websites',
    title: 'Websites',
    text: 'Fast, accessible websites for hospitals and clinics that tell patients who you are and how to reach you.',
    image: { src: '/illustrations/websites.svg', width: 320, height: 240 },
  },
  {
    id: 'softwares',
    title: 'Softwares',
    text: 'Hospital information-management software: the electronic medical record with laboratory, stock, billing and reporting.',
    image: { src: '/illustrations/softwares.svg', width: 320, height: 240 },
  },
  {
    id: 'mobile-applications',
    title: 'Mobile Applications',
    text: 'Mobile applications that take registration, documents and records to the bedside and the ward.',
    image: { src: '/illustrations/mobile-applications.svg', width: 320, height: 240 },
  },
  {
    id: 'designs',
    title: 'Designs',
    text: 'Clear interface and service design, shaped around the daily work of clinicians, nurses and staff.',
    image: { src: '/illustrations/designs.svg', width: 320, height: 240 },
  },
] as const satisfies readonly Offering[];
