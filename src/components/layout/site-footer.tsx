import Link from 'next/link';
import { MapPin } from 'lucide-react';
import { footerLinks } from '@/content/navigation';
import { linkPrefetch } from '@/lib/link-prefetch';
import { PostalAddress } from '@/components/ui/postal-address';
import { contactChannels } from '@/content/contact-channels';
import { site } from '@/content/site';
import { CurrentYear } from './current-year';
import { Logo } from './logo';
import { SocialLinks } from './social-links';
import { StaticIcon } from '@/components/ui/icon';

const linkClass = 'text-slate-700 underline-offset-4 hover:text-brand-800 hover:underline';

function LinkGroup({
  title,
  links,
}: {
  title: string;
  links: readonly { title: string; href: string }[];
}) {
  return (
    <div>
      <h2 className="text-sm font-semibold tracking-wide text-ink uppercase">{title}</h2>
      <ul className="mt-1.5 space-y-1 text-[0.9375rem]">
        {links.map(({ title: label, href }) => (
          <li key={href}>
            <Link href={href} prefetch={linkPrefetch(href)} className={linkClass}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The footer on every page (spec §2): Company, Terms & Conditions, Privacy Policy and the nine
 * services; the Bengaluru office with phone (`tel:`) and e-mail (`mailto:`); three social icons;
 * the copyright line with the current year.
 */
export function SiteFooter() {
  return (
    <footer className="mt-auto border-t border-slate-200 bg-surface">
      <div className="mx-auto grid max-w-page gap-4 px-2 py-5 sm:grid-cols-2 sm:px-3 lg:grid-cols-[1.3fr_1fr_1fr_1.4fr]">
        <div className="space-y-2">
          <Logo />
          <p className="max-w-[22rem] text-[0.9375rem] text-slate-700">{site.description}</p>
          <SocialLinks />
        </div>
        <div className="grid gap-4">
          <LinkGroup title="Company" links={footerLinks.company} />
          <LinkGroup title="Legal" links={footerLinks.legal} />
        </div>
        <LinkGroup title="Services" links={footerLinks.services} />
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-ink uppercase">Contact</h2>
          <ul className="mt-1.5 space-y-1.5 text-[0.9375rem] text-slate-700">
            <li className="flex gap-1">
              <StaticIcon
                icon={MapPin}
                aria-hidden="true"
                className="mt-0.5 size-2.5 shrink-0 text-brand-700"
              />
              <PostalAddress />
            </li>
            {contactChannels.map(({ label, href, text, icon: Icon }) => (
              <li key={label} className="flex gap-1">
                <StaticIcon
                  icon={Icon}
                  aria-hidden="true"
                  className="mt-0.5 size-2.5 shrink-0 text-brand-700"
                />
                <a href={href} className={linkClass}>
                  {text}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-200">
        <p className="mx-auto max-w-page px-2 py-2 text-sm text-slate-700 sm:px-3">
          © <CurrentYear renderedYear={new Date().getFullYear()} /> {site.name}. All rights
          reserved.
        </p>
      </div>
    </footer>
  );
}
