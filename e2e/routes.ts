/** The site's routes with their h1, shared by the browser specs. */
export const pages = [
  { path: '/', heading: 'One connected system for your whole hospital' },
  { path: '/products', heading: 'Nine modules for the whole hospital' },
  { path: '/products/4', heading: 'Nine modules for the whole hospital' },
  { path: '/about-us', heading: 'About Us' },
  { path: '/contact-us', heading: 'Contact Us' },
  { path: '/terms-conditions', heading: 'Terms & Conditions' },
  { path: '/privacy-policy', heading: 'Privacy Policy' },
  { path: '/privacy-requests', heading: 'Your data and your rights' },
  { path: '/accessibility', heading: 'Accessibility Statement' },
] as const;

/** The nine modules in the spec's order (spec §2, product page). */
export const moduleTitles = [
  'Registration',
  'Clinical Services',
  'Laboratory',
  'Inpatient Management',
  'Stock Management',
  'Billing & Accounting',
  'Reporting',
  'PACS Integration',
  'SNOMED CT Support',
] as const;
