import { headers } from 'next/headers';
import { connection } from 'next/server';
import { demoSubject } from '@/content/navigation';
import { site } from '@/content/site';
import { pageMetadata } from '@/lib/seo/metadata';
import { contactPageSettings, sourcePageOf, visitSourceOf } from '@/server/features/contact';
import { ContactDetails } from './contact-details';
import { ContactForm } from './contact-form';
import { VisitSourceFields } from './visit-source-fields';

export const metadata = pageMetadata({
  title: 'Contact Us',
  description: `Ask ${site.name} about ${site.product} or schedule a demo: send us a message, call or e-mail.`,
  path: '/contact-us',
});

type ContactPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Contact Us (spec §2): the enquiry form beside the office address, phone and e-mail.
 * `?subject=demo` (the "Schedule a Demo" link) pre-fills the subject and marks the enquiry as a
 * demo request; the same-site page the visitor came from is kept with it, and the visit's source
 * (what this page knows of it; the visit beacon puts the tab's source in its place in the browser). Rendered per
 * request: each visit gets a freshly signed form token.
 */
export default async function ContactPage({ searchParams }: ContactPageProps) {
  await connection();
  const query = await searchParams;
  const { subject } = query;
  const { token, retentionDays } = await contactPageSettings();
  const requestHeaders = await headers();
  const sourcePage = sourcePageOf(requestHeaders);
  const source = visitSourceOf(requestHeaders, query);

  return (
    <div className="mx-auto max-w-page px-2 py-4 sm:px-3 md:py-6">
      <h1 className="text-4xl sm:text-5xl">Contact Us</h1>
      <p className="mt-1.5 max-w-3xl text-lg text-slate-700">
        Tell us about your hospital or health facility and what you need from {site.product}. Ask a
        question or request a demo, and our team will get back to you.
      </p>
      <div className="mt-4 grid items-start gap-3 md:grid-cols-[minmax(0,1fr)_20rem] md:gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section
          aria-labelledby="contact-form-heading"
          className="rounded border border-slate-200 bg-white p-2 shadow-sm sm:p-3 md:p-4"
        >
          <h2 id="contact-form-heading" className="mb-2 text-2xl">
            Send us a message
          </h2>
          <ContactForm
            token={token}
            defaultSubject={subject === 'demo' ? demoSubject : ''}
            retentionDays={retentionDays}
            context={{ demoRequested: subject === 'demo', sourcePage, ...source }}
            sourceFields={<VisitSourceFields source={source} />}
          />
        </section>
        <ContactDetails />
      </div>
    </div>
  );
}
