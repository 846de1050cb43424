import Link from 'next/link';
import { ArrowRight } from 'lucide-react';
import { Reveal } from '@/components/ui/reveal';
import { Section, SectionHeading } from '@/components/ui/section';
import { home } from '@/content/home';
import { modules } from '@/content/modules';
import { StaticIcon } from '@/components/ui/icon';

/** The nine modules at a glance, each linking to its tab on the product page. */
export function ModulesSection() {
  return (
    <Section tone="surface" aria-labelledby="modules-heading">
      <SectionHeading id="modules-heading" title={home.modules.title} lead={home.modules.lead} />
      <ul className="mt-4 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {modules.map(({ id, title, summary, link, icon: Icon }) => (
          <li key={id}>
            <Reveal className="h-full">
              <Link
                href={link}
                className="group flex h-full gap-1.5 rounded border border-slate-200 bg-white p-2 shadow-sm transition-colors hover:border-brand-600"
              >
                <span className="flex size-5 shrink-0 items-center justify-center rounded bg-brand-50 text-brand-700">
                  <StaticIcon icon={Icon} aria-hidden="true" className="size-3" />
                </span>
                <span>
                  <span className="flex items-center gap-0.5 font-semibold text-ink group-hover:text-brand-800">
                    {title}
                    <StaticIcon
                      icon={ArrowRight}
                      aria-hidden="true"
                      className="size-2 transition-transform group-hover:translate-x-0.5"
                    />
                  </span>
                  <span className="mt-0.5 block text-[0.9375rem] text-slate-700">{summary}</span>
                </span>
              </Link>
            </Reveal>
          </li>
        ))}
      </ul>
    </Section>
  );
}
