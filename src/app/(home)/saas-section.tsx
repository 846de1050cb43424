import { Cloud } from 'lucide-react';
import { CtaLink } from '@/components/ui/cta';
import { Reveal } from '@/components/ui/reveal';
import { Section } from '@/components/ui/section';
import { home } from '@/content/home';
import { demoHref } from '@/content/navigation';
import { StaticIcon } from '@/components/ui/icon';

/** The closing section of the home page (spec §2): the SaaS cloud service, and a call to action. */
export function SaasSection() {
  return (
    <Section aria-labelledby="saas-heading">
      <Reveal>
        <div className="flex flex-col gap-3 rounded-cta bg-brand-800 p-3 text-white sm:p-5 md:flex-row md:items-center">
          <StaticIcon icon={Cloud} aria-hidden="true" className="size-7 shrink-0 text-brand-200" />
          <div className="flex-1">
            <h2 id="saas-heading" className="text-3xl text-white">
              {home.saas.title}
            </h2>
            <p className="mt-1.5 max-w-3xl text-lg text-brand-50">{home.saas.text}</p>
          </div>
          <CtaLink href={demoHref} intent="inverse" size="lg" className="self-start md:self-center">
            Schedule a Demo
          </CtaLink>
        </div>
      </Reveal>
    </Section>
  );
}
