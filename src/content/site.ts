/**
 * Brand and contact values (DESIGN.md §5). The specification leaves them blank; the provider sets
 * them here in one edit. Deployment values (site URL, database, SMTP) come from the environment.
 */
export type SocialProfile = {
  /** Network name, used as the icon's accessible name. */
  name: 'LinkedIn' | 'X' | 'YouTube';
  /** Profile URL; empty until the provider sets it (the icon then renders without a link). */
  url: string;
};

export const site = {
  name: 'Nirmaya Health',
  product: 'Nirmaya HIMS',
  tagline: 'Hospital information management, from registration to reporting',
  description:
    'Nirmaya HIMS is a hospital information-management system: an electronic medical record with laboratory, stock, billing and reporting sub-systems for hospitals and health facilities.',
  foundedYear: 2024,
  phone: '+91 80 0000 0000',
  email: 'hello@nirmaya.example',
  address: {
    street: 'Koramangala',
    city: 'Bengaluru',
    region: 'Karnataka',
    postalCode: '560034',
    country: 'India',
  },
  /**
   * The Grievance Officer who answers privacy requests and complaints (DPDP Act s.8(10), s.13;
   * Rules 2025, rule 9): named in the privacy policy and the request page. The provider sets the
   * real person here.
   */
  grievanceOfficer: {
    name: 'Kavita Menon',
    title: 'Grievance Officer',
    email: 'privacy@nirmaya.example',
  },
  social: [
    { name: 'LinkedIn', url: '' },
    { name: 'X', url: '' },
    { name: 'YouTube', url: '' },
  ] satisfies SocialProfile[],
} as const;

/** The phone number as a `tel:` URI (digits and a leading plus only). */
export const phoneHref = `tel:${site.phone.replace(/[^\d+]/g, '')}`;

/** The e-mail address as a `mailto:` URI. */
export const emailHref = `mailto:${site.email}`;

/** The postal address as display lines. */
export const addressLines = [
  site.name,
  site.address.street,
  `${site.address.city}, ${site.address.region} ${site.address.postalCode}`,
  site.address.country,
] as const;
