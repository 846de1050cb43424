import { Check } from 'lucide-react';
import { CtaLink } from '@/components/ui/cta';
import { Illustration } from '@/components/ui/illustration';
import heroIllustration from '@/content/illustrations/hero.svg';
import { demoHref } from '@/content/navigation';
import { home } from '@/content/home';
import { StaticIcon } from '@/components/ui/icon';

/**
 * The home hero (spec §2): heading, lead and the "Schedule a Demo" button. The text rises 50 px and
 * fades in over 0.5 s in CSS (`animate-hero-rise`, spec §9), so it needs no JavaScript; the
 * illustration is eager and high-priority as the likely largest paint.
 */
export function HeroSection() {
  return (
    <section
      aria-labelledby="hero-heading"
      className="overflow-hidden bg-gradient-to-b from-brand-50 to-white"
    >
      <div className="mx-auto grid max-w-page items-center gap-4 px-2 py-5 sm:px-3 md:grid-cols-[1.05fr_1fr] md:py-8">
        <div className="animate-hero-rise">
          <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase">
            {home.hero.eyebrow}
          </p>
          <h1 id="hero-heading" className="mt-1 text-4xl leading-tight sm:text-5xl">
            {home.hero.heading}
          </h1>
          <p className="mt-2 max-w-xl text-lg text-slate-700">{home.hero.lead}</p>
          <div className="mt-3 flex flex-wrap gap-1.5">
            <CtaLink href={demoHref} size="lg">
              Schedule a Demo
            </CtaLink>
            <CtaLink href="/products" size="lg" intent="secondary">
              Explore the modules
            </CtaLink>
          </div>
          <ul className="mt-3 grid gap-1 text-[0.9375rem] text-slate-700 sm:grid-cols-2">
            {home.hero.points.map((point) => (
              <li key={point} className="flex items-start gap-1">
                <StaticIcon
                  icon={Check}
                  aria-hidden="true"
                  className="mt-0.5 size-2.5 shrink-0 text-brand-700"
                />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <Illustration
          image={heroIllustration}
          alt={home.hero.imageAlt}
          priority
          className="mx-auto h-auto w-full max-w-[40rem]"
        />
      </div>
    </section>
  );
}
