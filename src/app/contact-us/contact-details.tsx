import { MapPin } from 'lucide-react';
import { PostalAddress } from '@/components/ui/postal-address';
import { contactChannels } from '@/content/contact-channels';

/** The office address, phone and e-mail (spec §2, Contact Us), from src/content/site.ts. */
export function ContactDetails() {
  const heading = 'text-sm font-semibold tracking-wide text-muted uppercase';
  const icon = 'mt-0.5 size-3 shrink-0 text-brand-700';
  return (
    <aside
      aria-labelledby="contact-details-heading"
      className="rounded border border-slate-200 bg-surface p-2 sm:p-3"
    >
      <h2 id="contact-details-heading" className="text-xl">
        Contact details
      </h2>
      <p className="mt-1 text-muted">You can also reach us directly.</p>
      <ul className="mt-2 grid gap-2">
        <li className="flex gap-1.5">
          <MapPin aria-hidden="true" className={icon} />
          <div>
            <h3 className={heading}>Office</h3>
            <PostalAddress />
          </div>
        </li>
        {contactChannels.map(({ label, href, text, icon: Icon }) => (
          <li key={label} className="flex gap-1.5">
            <Icon aria-hidden="true" className={icon} />
            <div>
              <h3 className={heading}>{label}</h3>
              <a
                href={href}
                className="font-semibold break-all text-brand-800 underline-offset-2 hover:underline"
              >
                {text}
              </a>
            </div>
          </li>
        ))}
      </ul>
    </aside>
  );
}
