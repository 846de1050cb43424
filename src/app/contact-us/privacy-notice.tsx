import Link from 'next/link';
import { linkPrefetch } from '@/lib/link-prefetch';

/**
 * The contact form's privacy notice above Submit: how long an enquiry is kept and where the
 * visitor's rights are. Content only, so it is rendered on the server and handed to the form.
 * @param retentionDays how long enquiries are kept, in days (LEADS_RETENTION_DAYS)
 */
export function PrivacyNotice({ retentionDays }: { retentionDays: number }) {
  return (
    <p className="text-sm text-muted">
      We use these details only to answer your enquiry, keep them for up to {retentionDays} days and
      never share them for marketing. Read our{' '}
      <Link
        href="/privacy-policy"
        className="font-medium text-brand-800 underline underline-offset-2"
      >
        Privacy Policy
      </Link>{' '}
      for your rights under India&apos;s Digital Personal Data Protection Act, 2023, and{' '}
      <Link
        href="/privacy-requests"
        prefetch={linkPrefetch('/privacy-requests')}
        className="font-medium text-brand-800 underline underline-offset-2"
      >
        exercise them here
      </Link>
      .
    </p>
  );
}
