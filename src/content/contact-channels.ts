import { Mail, Phone } from 'lucide-react';
import { emailHref, phoneHref, site } from './site';

/**
 * The ways to reach the provider directly, in display order: phone (`tel:`) and e-mail
 * (`mailto:`), each with its icon. Kept apart from `site.ts`, which server code and the `leads`
 * CLI read, so that they load no icon component.
 */
export const contactChannels = [
  { label: 'Phone', href: phoneHref, text: site.phone, icon: Phone },
  { label: 'Email', href: emailHref, text: site.email, icon: Mail },
] as const;
