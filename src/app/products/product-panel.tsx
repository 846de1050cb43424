import Link from 'next/link';
import { ArrowLeft, ArrowRight, CheckCircle2 } from 'lucide-react';
import { CtaLink } from '@/components/ui/cta';
import { modules } from '@/content/modules';
import { demoHref } from '@/content/navigation';
import { PRODUCT_PANEL_ID, productTabId } from '@/lib/product-tab';
import { StaticIcon } from '@/components/ui/icon';

/**
 * The panel of one module (spec §1 module list, §2 product page), server-rendered: summary,
 * description and feature groups, then a call to action and links to the neighbouring modules.
 *
 * @param index Tab index 0-8 (already validated by the route).
 */
export function ProductPanel({ index }: { index: number }) {
  const entry = modules[index];
  if (!entry) throw new RangeError(`No module at tab index ${index}`);
  const { title, summary, description, features, icon: Icon } = entry;
  const previous = modules[index - 1];
  const next = modules[index + 1];

  return (
    <div
      role="tabpanel"
      id={PRODUCT_PANEL_ID}
      aria-labelledby={productTabId(index)}
      tabIndex={0}
      className="min-w-0 rounded focus-visible:outline-offset-8"
    >
      <div className="flex items-center gap-1.5">
        <span className="flex size-6 shrink-0 items-center justify-center rounded-cta bg-brand-50 text-brand-700">
          <StaticIcon icon={Icon} aria-hidden="true" className="size-3.5" />
        </span>
        <h2 className="text-3xl sm:text-4xl">{title}</h2>
      </div>
      <p className="mt-2 text-xl text-ink">{summary}</p>
      {description.map((paragraph) => (
        <p key={paragraph.slice(0, 40)} className="mt-2 max-w-3xl text-slate-700">
          {paragraph}
        </p>
      ))}
      <div className="mt-4 grid gap-2 md:grid-cols-2">
        {features.map((group) => (
          <section
            key={group.heading}
            className="rounded border border-slate-200 bg-white p-2 shadow-sm"
          >
            <h3 className="text-lg">{group.heading}</h3>
            <ul className="mt-1 space-y-0.5 text-[0.9375rem] text-slate-700">
              {group.items.map((item) => (
                <li key={item} className="flex gap-1">
                  <StaticIcon
                    icon={CheckCircle2}
                    aria-hidden="true"
                    className="mt-0.5 size-2 shrink-0 text-brand-700"
                  />
                  {item}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-2 rounded bg-surface p-2">
        <p className="flex-1 font-medium">See {title} working with your own workflows.</p>
        <CtaLink href={demoHref}>Schedule a Demo</CtaLink>
      </div>
      <nav
        aria-label="More modules"
        className="mt-3 flex flex-wrap justify-between gap-2 text-brand-800"
      >
        {previous ? (
          <Link
            href={previous.link}
            className="flex items-center gap-0.5 underline-offset-4 hover:underline"
          >
            <StaticIcon icon={ArrowLeft} aria-hidden="true" className="size-2" />
            {previous.title}
          </Link>
        ) : (
          <span />
        )}
        {next && (
          <Link
            href={next.link}
            className="flex items-center gap-0.5 underline-offset-4 hover:underline"
          >
            {next.title}
            <StaticIcon icon={ArrowRight} aria-hidden="true" className="size-2" />
          </Link>
        )}
      </nav>
    </div>
  );
}
