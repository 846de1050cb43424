import type { BreadcrumbList, Organization, SoftwareApplication, WithContext } from 'schema-dts';
import type { Module } from '@/content/modules';
import { site } from '@/content/site';
import type { Crumb } from '@/lib/breadcrumbs';
import { resolveSitePath } from './url';

/** `@id` of the provider's Organization node, so other nodes can refer to it. */
const organizationId = (base: string | URL) => resolveSitePath('/#organization', base);

/**
 * schema.org `Organization` of the provider (for Home): name, URL, logo, description, founding
 * year, contact and postal address from `src/content/site.ts`; `sameAs` lists only social profiles
 * whose URL is set.
 *
 * @param base The site URL (`SITE_URL`) the URLs are made absolute against.
 */
export function organizationJsonLd(base: string | URL): WithContext<Organization> {
  const sameAs = site.social.map(({ url }) => url).filter(Boolean);
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': organizationId(base),
    name: site.name,
    url: resolveSitePath('/', base),
    logo: resolveSitePath('/icon.svg', base),
    description: site.description,
    foundingDate: String(site.foundedYear),
    email: site.email,
    telephone: site.phone,
    address: {
      '@type': 'PostalAddress',
      streetAddress: site.address.street,
      addressLocality: site.address.city,
      addressRegion: site.address.region,
      postalCode: site.address.postalCode,
      addressCountry: site.address.country,
    },
    ...(sameAs.length > 0 ? { sameAs } : {}),
  };
}

/**
 * schema.org `SoftwareApplication` of one module's page: the module as part of the product,
 * a health application used in a web browser (the product is offered as SaaS, used from a
 * browser), with the module's summary and its feature items. No offer or rating: the site states none.
 *
 * @param entry The module from the registry.
 * @param base The site URL (`SITE_URL`).
 */
export function softwareApplicationJsonLd(
  entry: Module,
  base: string | URL,
): WithContext<SoftwareApplication> {
  return {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: `${site.product} ${entry.title}`,
    description: entry.summary,
    url: resolveSitePath(entry.link, base),
    applicationCategory: 'HealthApplication',
    applicationSubCategory: 'Hospital information management system',
    operatingSystem: 'Web browser',
    featureList: entry.features.flatMap(({ items }) => items),
    isPartOf: { '@type': 'SoftwareApplication', name: site.product },
    publisher: { '@type': 'Organization', '@id': organizationId(base), name: site.name },
  };
}

/**
 * schema.org `BreadcrumbList` of a trail from `buildBreadcrumbs`, so it names the same items,
 * in the same order, as the visible breadcrumb (positions from 1, absolute item URLs).
 *
 * @param trail The full (uncollapsed) trail.
 * @param base The site URL (`SITE_URL`).
 */
export function breadcrumbJsonLd(
  trail: readonly Crumb[],
  base: string | URL,
): WithContext<BreadcrumbList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map(({ label, href }, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: label,
      item: resolveSitePath(href, base),
    })),
  };
}
