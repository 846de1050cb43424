import type { Metadata } from 'next';
import Link from 'next/link';
import { consoleText } from '@/content/console';
import { SIGN_IN_PATH, SIGN_IN_VERIFY_PATH, isPendingActId } from '@/server/features/console';
import { buttonClass, linkClass, PageHeading } from '../../ui';

export const metadata: Metadata = { title: 'Sign in' };

type ConfirmPageProps = {
  searchParams: Promise<{ token?: string | string[]; pending?: string | string[] }>;
};

/** A query value as one string (the first when repeated), else empty. */
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * What the e-mailed sign-in link opens: a button that posts the link's token (and the id of the
 * operator's pending act, for a fresh sign-in's link), and only that POST signs in. Opening the
 * link (a mail gateway's scanner, a preview) uses nothing up.
 */
export default async function SignInConfirmPage({ searchParams }: ConfirmPageProps) {
  const params = await searchParams;
  const token = one(params.token) ?? '';
  const pending = one(params.pending);
  const text = consoleText.signIn;
  return (
    <div className="max-w-xl">
      <PageHeading title={text.confirmTitle} intro={text.confirmIntro} />
      {/^[A-Za-z0-9]{1,200}$/.test(token) ? (
        <form method="post" action={SIGN_IN_VERIFY_PATH}>
          <input type="hidden" name="token" value={token} />
          {isPendingActId(pending) && <input type="hidden" name="pending" value={pending} />}
          <button type="submit" className={buttonClass}>
            {text.confirmSubmit}
          </button>
        </form>
      ) : (
        <p>
          <Link href={SIGN_IN_PATH} prefetch={false} className={linkClass}>
            {text.confirmMissing}
          </Link>
        </p>
      )}
    </div>
  );
}
