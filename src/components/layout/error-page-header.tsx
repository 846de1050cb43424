import { CtaLink } from '@/components/ui/cta';

/**
 * The top of an error page (the 404 page, src/app/not-found.tsx, and the refusal pages of issue
 * 15, src/app/request-error): "Error <status>" above the `title` heading, the `paragraphs` that
 * explain it, and the ways back (home page, Contact Us).
 */
export function ErrorPageHeader({
  status,
  title,
  paragraphs,
}: {
  status: number;
  title: string;
  paragraphs: readonly string[];
}) {
  return (
    <>
      <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase">{`Error ${status}`}</p>
      <h1 className="mt-1 text-4xl sm:text-5xl">{title}</h1>
      {paragraphs.map((paragraph) => (
        <p key={paragraph} className="mt-2 max-w-2xl text-lg text-slate-700">
          {paragraph}
        </p>
      ))}
      <div className="mt-3 flex flex-wrap gap-1.5">
        <CtaLink href="/">Back to the home page</CtaLink>
        <CtaLink href="/contact-us" intent="secondary">
          Contact us
        </CtaLink>
      </div>
    </>
  );
}
