import { CalendarCheck2, GitBranch } from 'lucide-react';
import { CtaLink } from '@/components/ui/cta';
import { Reveal } from '@/components/ui/reveal';
import { Section, SectionHeading } from '@/components/ui/section';
import { about } from '@/content/about';
import { demoHref } from '@/content/navigation';
import { site } from '@/content/site';
import { pageMetadata } from '@/lib/seo/metadata';
import { StaticIcon } from '@/components/ui/icon';

export const metadata = pageMetadata({
  title: 'About Us',
  description: `${site.name}, established in ${site.foundedYear}, builds ${site.product} and contributes to open-source health projects.`,
  path: '/about-us',
});

/** About Us (spec §1): established 2024, open-source contributions, eight feature groups. */
export default function AboutPage() {
  return (
    <>
      <section aria-labelledby="about-heading" className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto grid max-w-page gap-4 px-2 py-5 sm:px-3 md:grid-cols-[1.6fr_1fr] md:py-7">
          <div>
            <h1 id="about-heading" className="text-4xl sm:text-5xl">
              About Us
            </h1>
            {about.intro.map((paragraph) => (
              <p key={paragraph.slice(0, 40)} className="mt-2 max-w-3xl text-lg text-slate-700">
                {paragraph}
              </p>
            ))}
          </div>
          <dl className="grid content-start gap-2 self-start">
            {/* A <div> in a <dl> may hold only its <dt> and <dd>: the icon sits in the <dt>, placed in the padding. */}
            <div className="relative rounded border border-slate-200 bg-white p-2 pl-[3.25rem] shadow-sm">
              <dt className="text-sm font-semibold tracking-wide text-muted uppercase">
                <StaticIcon
                  icon={CalendarCheck2}
                  aria-hidden="true"
                  className="absolute top-2 left-2 size-3 text-brand-700"
                />
                Established
              </dt>
              <dd className="text-3xl font-bold tracking-tight">{site.foundedYear}</dd>
            </div>
            <div className="relative rounded border border-slate-200 bg-white p-2 pl-[3.25rem] shadow-sm">
              <dt className="text-sm font-semibold tracking-wide text-muted uppercase">
                <StaticIcon
                  icon={GitBranch}
                  aria-hidden="true"
                  className="absolute top-2 left-2 size-3 text-brand-700"
                />
                Open source
              </dt>
              <dd className="font-semibold">Contributes to open-source health projects</dd>
            </div>
          </dl>
        </div>
      </section>

      <Section aria-labelledby="features-heading">
        <SectionHeading
          id="features-heading"
          title={`What ${site.product} brings together`}
          lead="Eight groups of features, from the registration desk to the management report."
        />
        <ul className="mt-4 grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
          {about.featureGroups.map(({ title, text, icon: Icon }) => (
            <li key={title}>
              <Reveal className="h-full rounded border border-slate-200 bg-white p-2 shadow-sm">
                <span className="flex size-5 items-center justify-center rounded bg-brand-50 text-brand-700">
                  <StaticIcon icon={Icon} aria-hidden="true" className="size-3" />
                </span>
                <h3 className="mt-1.5 text-lg">{title}</h3>
                <p className="mt-1 text-[0.9375rem] text-slate-700">{text}</p>
              </Reveal>
            </li>
          ))}
        </ul>
      </Section>

      <Section tone="surface" aria-labelledby="open-source-heading">
        <div className="grid gap-3 md:grid-cols-[1.6fr_1fr] md:items-center">
          <div>
            <h2 id="open-source-heading" className="text-3xl">
              Open source and open standards
            </h2>
            <p className="mt-1.5 max-w-3xl text-lg text-slate-700">{about.openSource}</p>
          </div>
          <div className="md:justify-self-end">
            <CtaLink href={demoHref} size="lg">
              Schedule a Demo
            </CtaLink>
          </div>
        </div>
      </Section>
    </>
  );
}
