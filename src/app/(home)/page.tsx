import { home } from '@/content/home';
import { offerings } from '@/content/offerings';
import { HeroSection } from './hero-section';
import { ModulesSection } from './modules-section';
import { SaasSection } from './saas-section';
import { WhatWeDoSection } from './what-we-do-section';

/** Home (spec §2): hero, What We Do, the modules at a glance, and the closing SaaS paragraph. */
export default function HomePage() {
  return (
    <>
      <HeroSection />
      <WhatWeDoSection offerings={offerings} lead={home.whatWeDoLead} />
      <ModulesSection />
      <SaasSection />
    </>
  );
}
