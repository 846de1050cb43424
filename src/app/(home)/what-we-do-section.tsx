import { Illustration } from '@/components/ui/illustration';
import { Reveal } from '@/components/ui/reveal';
import { Section, SectionHeading } from '@/components/ui/section';
import type { Offering } from '@/content/offerings';

/** Text shown when there are no offerings (spec §8, the only error text of the spec). */
export const NO_OFFERINGS_TEXT = 'No products available at the moment.';

/**
 * "What We Do" (spec §2, home): the offerings, each with its title and image; the empty-state text
 * when the list is empty.
 *
 * @param offerings The offerings to list, in order.
 */
export function WhatWeDoSection({
  offerings,
  lead,
}: {
  offerings: readonly Offering[];
  lead: string;
}) {
  return (
    <Section aria-labelledby="what-we-do">
      <SectionHeading id="what-we-do" title="What We Do" lead={lead} />
      {offerings.length === 0 ? (
        <p className="mt-4 rounded border border-dashed border-slate-300 p-3 text-center text-slate-700">
          {NO_OFFERINGS_TEXT}
        </p>
      ) : (
        <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {offerings.map((offering) => (
            <li key={offering.id}>
              <Reveal className="h-full">
                <article className="flex h-full flex-col overflow-hidden rounded border border-slate-200 bg-white shadow-sm">
                  <Illustration
                    image={offering.image}
                    alt=""
                    className="h-auto w-full bg-surface"
                  />
                  <div className="flex flex-1 flex-col p-2">
                    <h3 className="text-xl">{offering.title}</h3>
                    <p className="mt-1 text-[0.9375rem] text-slate-700">{offering.text}</p>
                  </div>
                </article>
              </Reveal>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
