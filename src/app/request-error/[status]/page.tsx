import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ErrorPageHeader } from '@/components/layout/error-page-header';
import { requestErrors, type RequestErrorStatus } from '@/content/request-errors';

type Props = { params: Promise<{ status: string }> };

/** Only the prerendered statuses exist; the proxy serves them (`/request-error/*` itself is a 404). */
export const dynamicParams = false;

/** One page per status of `requestErrors` (400, 403, 405, 413, 414). */
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
 * The page a bad request gets, in the site's layout: the status, what went wrong and
 * the limit in plain words, and ways back. The proxy answers with its prerendered HTML and the status.
 */
export default async function RequestErrorPage({ params }: Props) {
  const { status } = await params;
  const text = entry(status);
  if (!text) notFound();
  return (
    <div className="mx-auto max-w-page px-2 py-6 sm:px-3 md:py-8">
      <ErrorPageHeader status={Number(status)} title={text.title} paragraphs={text.paragraphs} />
    </div>
  );
}
