import 'server-only';
import { siteUrl } from '@/lib/seo/site-url';
import { escapeHtml } from '../../delivery/email/message';

/** The path of the privacy-request page. */
export const PRIVACY_REQUESTS_PATH = '/privacy-requests';

/**
 * The one-line footer of every e-mail the site sends to a visitor (demo invitations, reminders,
 * cancellations, the privacy e-mails): where to exercise their rights (DPDP Act s.5(1)(ii), the
 * notice names how to exercise them), on `SITE_URL`, as a text line and an HTML paragraph.
 */
export function rightsFooter(): { text: string; html: string } {
  const url = new URL(PRIVACY_REQUESTS_PATH.slice(1), siteUrl()).href;
  const label = 'Your data and your rights';
  return {
    text: `${label}: ${url}`,
    html: `<p style="color:#475569;font-size:13px">${label}: <a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
  };
}
