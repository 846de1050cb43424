import Link from 'next/link';
import { CtaLink } from '@/components/ui/cta';
import { productLinks } from '@/content/navigation';

export const metadata = { title: 'Page not found', robots: { index: false } };

/** The 404 page (any unknown path, `/resources`, `/products/9`): a message and ways back. */
export default function NotFound() {
  return (
    <div className="mx-auto max-w-page px-2 py-6 sm:px-3 md:py-8">
      <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase">Error 404</p>
      <h1 className="mt-1 text-4xl sm:text-5xl">Page not found</h1>
      <p className="mt-2 max-w-2xl text-lg text-slate-700">
        The page you asked for does not exist or has moved. Go back to the home page, or choose one
        of the modules below.
      </p>
      <div className="mt-3 flex flex-wrap gap-1.5">
        <CtaLink href="/">Back to the home page</CtaLink>
        <CtaLink href="/contact-us" intent="secondary">
          Contact us
        </CtaLink>
      </div>
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
