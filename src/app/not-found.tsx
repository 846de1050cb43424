import Link from 'next/link';
import { ErrorPageHeader } from '@/components/layout/error-page-header';
import { productLinks } from '@/content/navigation';
import { hydrateAtLoad } from '@/lib/hydrate-at-load';

export const metadata = { title: 'Page not found', robots: { index: false } };

/**
 * The 404 page (any unknown path, `/resources`, `/products/9`): a message and ways back. Its
 * breadcrumb trail is drawn in the browser from the URL asked for, so its framework starts at `load`.
 */
export default function NotFound() {
  return (
    // The framework starts at `load` here: only the browser knows the URL asked for, whose
    // breadcrumb trail the layout draws.
    <div className="mx-auto max-w-page px-2 py-6 sm:px-3 md:py-8" {...hydrateAtLoad}>
      <ErrorPageHeader
        status={404}
        title="Page not found"
        paragraphs={[
          'The page you asked for does not exist or has moved. Go back to the home page, or choose one of the modules below.',
        ]}
      />
      <h2 className="mt-5 text-2xl">Modules</h2>
      <ul className="mt-1.5 grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
        {productLinks.map(({ id, title, link }) => (
          <li key={id}>
            <Link
              href={link}
              className="text-brand-800 underline underline-offset-4 hover:text-brand-900"
            >
              {title}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
