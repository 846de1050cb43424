import { connection } from 'next/server';
import { privacyRequestTexts } from '@/content/privacy';
import { site } from '@/content/site';
import { pageMetadata } from '@/lib/seo/metadata';
import { privacyFormToken } from '@/server/wiring/privacy-requests';
import { PrivacyRequestForm } from './request-form';

export const metadata = pageMetadata({
  title: 'Your data and your rights',
  description: `Ask ${site.name} for a copy of your data, its correction or erasure, to stop contacting you, to name a nominee or to raise a grievance (DPDP Act, 2023).`,
  path: '/privacy-requests',
});

/**
 * The privacy-request page (DPDP Act 2023, ss.6(4), 11–14): the form that e-mails a confirmation
 * link to the address, beside how else to reach the grievance contact. Rendered per request: like
 * the contact form, each visit gets a freshly signed form token (with the honeypot and the proof
 * of work, it keeps bots from using the form to mail an address; the link proves the address).
 */
export default async function PrivacyRequestsPage() {
  await connection();
  const token = await privacyFormToken();
  return (
    <div className="mx-auto max-w-page px-2 py-4 sm:px-3 md:py-6">
      <h1 className="text-4xl sm:text-5xl">{privacyRequestTexts.title}</h1>
      <p className="mt-1.5 max-w-3xl text-lg text-slate-700">{privacyRequestTexts.intro}</p>
      <div className="mt-4 grid items-start gap-3 md:grid-cols-[minmax(0,1fr)_20rem] md:gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section
          aria-labelledby="privacy-form-heading"
          className="rounded border border-slate-200 bg-white p-2 shadow-sm sm:p-3 md:p-4"
        >
          <h2 id="privacy-form-heading" className="mb-2 text-2xl">
            Make a request
          </h2>
          <PrivacyRequestForm token={token} />
        </section>
        <aside
          aria-labelledby="privacy-how-heading"
          className="rounded border border-slate-200 bg-slate-50 p-2 sm:p-3"
        >
          <h2 id="privacy-how-heading" className="mb-1 text-xl">
            How it works
          </h2>
          <ol className="grid list-decimal gap-1 pl-3 text-slate-700">
            <li>We e-mail the address a link, valid for 24 hours.</li>
            <li>Open it and press the button to confirm.</li>
            <li>
              A copy or an erasure is done at once; anything else is answered within 90 days, with a
              reference.
            </li>
          </ol>
          <p className="mt-2 text-sm text-slate-700">
            You can also write to{' '}
            <a
              href={`mailto:${site.email}`}
              className="font-medium text-brand-800 underline underline-offset-2"
            >
              {site.email}
            </a>
            .
          </p>
        </aside>
      </div>
    </div>
  );
}
