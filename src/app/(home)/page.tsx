import { JsonLd } from '@/components/seo/json-ld';
import { home } from '@/content/home';
import { offerings } from '@/content/offerings';
import { site } from '@/content/site';
import { pageMetadata } from '@/lib/seo/metadata';
import { siteUrl } from '@/lib/seo/site-url';
import { organizationJsonLd } from '@/lib/seo/structured-data';
import { HeroSection } from './hero-section';
import { ModulesSection } from './modules-section';
import { SaasSection } from './saas-section';
import { WhatWeDoSection } from './what-we-do-section';

export const metadata = pageMetadata({ description: site.description, path: '/' });

/** Home (spec §2): hero, What We Do, the modules at a glance, and the closing SaaS paragraph; the provider as JSON-LD. */
export default function HomePage() {
  return (
    <>
      <JsonLd data={organizationJsonLd(siteUrl())} />
      <HeroSection />
      <WhatWeDoSection offerings={offerings} lead={home.whatWeDoLead} />
      <ModulesSection />
      <SaasSection />
    </>
  );
}
