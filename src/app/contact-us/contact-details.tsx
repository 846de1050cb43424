import { Mail, MapPin, Phone } from 'lucide-react';
import { PostalAddress } from '@/components/ui/postal-address';
import { emailHref, phoneHref, site } from '@/content/site';

/** The office address, phone and e-mail (spec §2, Contact Us), from src/content/site.ts. */
export function ContactDetails() {
  return (
    <aside aria-labelledby="contact-details-heading" className="rounded border border-slate-200 bg-surface p-2 sm:p-3">
      <h2 id="contact-details-heading" className="text-xl">
        Contact details
      </h2>
      <p className="mt-1 text-muted">You can also reach us directly.</p>
      <ul className="mt-2 grid gap-2">
        <li className="flex gap-1.5">
          <MapPin aria-hidden="true" className="mt-0.5 size-3 shrink-0 text-brand-700" />
          <div>
            <h3 className="text-sm font-semibold tracking-wide text-muted uppercase">Office</h3>
            <PostalAddress />
          </div>
        </li>
        <li className="flex gap-1.5">
          <Phone aria-hidden="true" className="mt-0.5 size-3 shrink-0 text-brand-700" />
          <div>
            <h3 className="text-sm font-semibold tracking-wide text-muted uppercase">Phone</h3>
            <a href={phoneHref} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
              {site.phone}
            </a>
          </div>
        </li>
        <li className="flex gap-1.5">
          <Mail aria-hidden="true" className="mt-0.5 size-3 shrink-0 text-brand-700" />
          <div>
            <h3 className="text-sm font-semibold tracking-wide text-muted uppercase">Email</h3>
            <a href={emailHref} className="font-semibold break-all text-brand-800 underline-offset-2 hover:underline">
              {site.email}
            </a>
          </div>
        </li>
      </ul>
    </aside>
  );
}
