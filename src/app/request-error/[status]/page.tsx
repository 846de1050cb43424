import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { CtaLink } from '@/components/ui/cta';
import { requestErrors, type RequestErrorStatus } from '@/content/request-errors';

type Props = { params: Promise<{ status: string }> };

/** Only the prerendered statuses exist; the proxy serves them (`/request-error/*` itself is a 404). */
export const dynamicParams = false;

/** One page per status of `requestErrors` (400, 405, 413, 414). */
export function generateStaticParams() {
  return Object.keys(requestErrors).map((status) => ({ status }));
}

function entry(status: string) {
  return status in requestErrors ? requestErrors[Number(status) as RequestErrorStatus] : undefined;
}

/** The page's title; never indexed. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: entry((await params).status)?.title, robots: { index: false } };
}

/**
 * The page a bad request gets, in the site's layout (issue 15): the status, what went wrong and
 * the limit in plain words, and ways back. The proxy answers with its prerendered HTML and the status.
 */
export default async function RequestErrorPage({ params }: Props) {
  const { status } = await params;
  const text = entry(status);
  if (!text) notFound();
  return (
    <div className="mx-auto max-w-page px-2 py-6 sm:px-3 md:py-8">
      <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase">{`Error ${status}`}</p>
      <h1 className="mt-1 text-4xl sm:text-5xl">{text.title}</h1>
      {text.paragraphs.map((paragraph) => (
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
    </div>
  );
}
