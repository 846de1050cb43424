import { modules } from './modules';

/**
 * A navigation-bar item (spec §3 "Navigation item": id, target, title, link flag, dropdown flag).
 * `link` items navigate to `target`; `dropdown` items open the list of modules.
 */
export type NavItem = {
  id: string;
  title: string;
  target: string;
  link: boolean;
  dropdown: boolean;
};

/** Navigation bar, in the spec's order (spec §2): Home, Products, About Us, Contact Us. */
export const navItems = [
  { id: 'home', title: 'Home', target: '/', link: true, dropdown: false },
  { id: 'products', title: 'Products', target: '/products', link: false, dropdown: true },
  { id: 'about-us', title: 'About Us', target: '/about-us', link: true, dropdown: false },
  { id: 'contact-us', title: 'Contact Us', target: '/contact-us', link: true, dropdown: false },
] as const satisfies readonly NavItem[];

/** Entries of the Products dropdown: every module, linking to `/products/{index}`. */
export const productLinks = modules.map(({ id, title, link }) => ({ id, title, link }));

/** The "Schedule a Demo" call to action: the contact form with the demo subject pre-filled. */
export const demoHref = '/contact-us?subject=demo';

/** Subject pre-filled in the contact form when the visitor arrives from "Schedule a Demo". */
export const demoSubject = 'Request a demo of Nirmaya HIMS';

/** Footer link groups (spec §2, footer): Company, legal pages, and the nine services. */
export const footerLinks = {
  company: [
    { title: 'About Us', href: '/about-us' },
    { title: 'Contact Us', href: '/contact-us' },
  ],
  legal: [
    { title: 'Terms & Conditions', href: '/terms-conditions' },
    { title: 'Privacy Policy', href: '/privacy-policy' },
    { title: 'Your data and your rights', href: '/privacy-requests' },
    { title: 'Accessibility', href: '/accessibility' },
  ],
  services: productLinks.map(({ title, link }) => ({ title, href: link })),
} as const;
