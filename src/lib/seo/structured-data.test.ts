import { describe, expect, it } from 'vitest';
import { modules } from '@/content/modules';
import { site } from '@/content/site';
import { buildBreadcrumbs } from '@/lib/breadcrumbs';
import { serializeJsonLd, type JsonLdDocument } from './json-ld';
import { breadcrumbJsonLd, organizationJsonLd, softwareApplicationJsonLd } from './structured-data';

const base = 'https://www.nirmaya.example/';

/** The document as a crawler reads it: serialised, then parsed. */
const read = <T = Record<string, unknown>>(document: JsonLdDocument) =>
  JSON.parse(serializeJsonLd(document)) as T;

describe('breadcrumbJsonLd', () => {
  it.each(['/about-us', '/products/3', '/products/0', '/terms-conditions'])(
    'lists the visible trail of %s with absolute URLs',
    (path) => {
      const trail = buildBreadcrumbs(path);
      const { itemListElement: items } = read<{
        itemListElement: { position: number; name: string; item: string }[];
      }>(breadcrumbJsonLd(trail, base));
      expect(items.map(({ name }) => name)).toEqual(trail.map(({ label }) => label));
      expect(items.map(({ position }) => position)).toEqual(trail.map((_, index) => index + 1));
      expect(items.map(({ item }) => item)).toEqual(
        trail.map(({ href }) => new URL(href, base).href),
      );
    },
  );
});

describe('organizationJsonLd', () => {
  it('describes the provider from the site constants', () => {
    const org = read(organizationJsonLd(base));
    expect(org).toMatchObject({
      '@type': 'Organization',
      name: site.name,
      url: base,
      foundingDate: '2024',
      email: site.email,
      telephone: site.phone,
      address: { addressLocality: 'Bengaluru', postalCode: site.address.postalCode },
    });
    // Social profiles without a URL are left out rather than listed empty.
    expect(org.sameAs).toBeUndefined();
  });
});

describe('softwareApplicationJsonLd', () => {
  it.each(modules.map((entry) => [entry.title, entry] as const))('%s', (_, entry) => {
    const app = read(softwareApplicationJsonLd(entry, base));
    expect(app).toMatchObject({
      '@type': 'SoftwareApplication',
      name: `${site.product} ${entry.title}`,
      url: `${base}products/${entry.id}`,
      description: entry.summary,
      applicationCategory: 'HealthApplication',
      publisher: { '@id': `${base}#organization` },
    });
    expect(app.featureList).toEqual(entry.features.flatMap(({ items }) => items));
  });
});
