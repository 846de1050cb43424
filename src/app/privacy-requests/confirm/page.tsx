import type { Metadata } from 'next';
import { connection } from 'next/server';
import Link from 'next/link';
import { CtaButton } from '@/components/ui/cta';
import { privacyRequestTexts } from '@/content/privacy';
import { ownValue } from '@/lib/own-value';
import { isReference } from '@/server/platform/reference';
import { confirmPrivacyRequestAction } from '../actions';

const confirmRequest = confirmPrivacyRequestAction.bind(null, null);

/**
 * Not indexed, and other sites learn at most the origin from it: the address carries the link's
 * token (`strict-origin`, not `no-referrer`, under which browsers send the form's POST with
 * `Origin: null`, which Next.js refuses as a cross-site action).
 */
export const metadata: Metadata = {
  title: privacyRequestTexts.confirmTitle,
  robots: { index: false, follow: false },
  referrer: 'strict-origin',
};

type ConfirmPageProps = {
  searchParams: Promise<{
    token?: string | string[];
    outcome?: string | string[];
    reference?: string | string[];
  }>;
};

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const outcomes: Record<string, string> = {
  used: privacyRequestTexts.used,
  expired: privacyRequestTexts.expired,
  invalid: privacyRequestTexts.invalidLink,
  unavailable: privacyRequestTexts.unavailable,
};

const link = 'font-semibold text-brand-800 underline underline-offset-2';

/**
 * The page the e-mailed link opens: a button that confirms the request (a POST; opening the link,
 * as mail scanners do, changes nothing), then, after the post, its outcome: confirmed with the
 * reference, already used, expired (after 24 hours) or invalid.
 */
export default async function ConfirmPrivacyRequestPage({ searchParams }: ConfirmPageProps) {
  await connection();
  const params = await searchParams;
  const token = one(params.token);
  const outcome = one(params.outcome);
  const reference = one(params.reference);
  return (
    <div className="mx-auto max-w-page px-2 py-4 sm:px-3 md:py-6">
      <h1 className="text-4xl sm:text-5xl">{privacyRequestTexts.confirmTitle}</h1>
      <div className="mt-3 max-w-2xl rounded border border-slate-200 bg-white p-2 shadow-sm sm:p-3 md:p-4">
        {outcome === 'confirmed' ? (
          <p role="status" className="text-lg text-ink">
            {privacyRequestTexts.confirmed}
            {isReference(reference) ? (
              <>
                {' '}
                Your reference is <strong>{reference}</strong>.
              </>
            ) : null}
          </p>
        ) : outcome ? (
          <p role="alert" className="text-lg text-ink">
            {ownValue(outcomes, outcome) ?? privacyRequestTexts.invalidLink}{' '}
            <Link href="/privacy-requests" className={link}>
              Make a request
            </Link>
          </p>
        ) : token ? (
          <form action={confirmRequest} className="grid gap-2">
            <p className="text-lg text-slate-700">
              Press the button to confirm the request you made with this e-mail address.
            </p>
            <input type="hidden" name="token" value={token} />
            <div>
              <CtaButton type="submit" size="md">
                Confirm my request
              </CtaButton>
            </div>
          </form>
        ) : (
          <p role="alert" className="text-lg text-ink">
            {privacyRequestTexts.invalidLink}{' '}
            <Link href="/privacy-requests" className={link}>
              Make a request
            </Link>
          </p>
        )}
      </div>
    </div>
  );
}
