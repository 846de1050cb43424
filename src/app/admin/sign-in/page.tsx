import type { Metadata } from 'next';
import { consoleText } from '@/content/console';
import { signInAction } from '../actions';
import { buttonClass, inputClass, labelClass, PageHeading } from '../ui';

export const metadata: Metadata = { title: 'Sign in' };

const signIn = signInAction.bind(null, null);

type SignInPageProps = {
  searchParams: Promise<{
    answer?: string | string[];
    link?: string | string[];
    fresh?: string | string[];
  }>;
};

/**
 * The console's sign-in: an e-mail address, then a link by e-mail. Every address gets the same
 * answer, whether or not it belongs to an operator, and the link opens the console's home: this
 * page takes no place to return to. `fresh` says a dangerous act asked for a recent sign-in and
 * its link is on its way (`sent`) or refused by the limits (`limited`).
 */
export default async function SignInPage({ searchParams }: SignInPageProps) {
  const { answer, link, fresh } = await searchParams;
  const text = consoleText.signIn;
  const notice =
    answer === 'sent'
      ? text.sent
      : answer === 'limited'
        ? text.limited
        : answer === 'invalid'
          ? text.invalid
          : link === 'failed'
            ? text.linkFailed
            : fresh === 'sent'
              ? text.fresh
              : fresh === 'limited'
                ? text.freshLimited
                : undefined;
  return (
    <div className="max-w-xl">
      <PageHeading title={text.title} intro={text.intro} />
      <p
        role="status"
        className={notice ? 'mb-2 rounded border border-brand-300 bg-brand-50 p-1.5' : undefined}
      >
        {notice}
      </p>
      <form action={signIn} className="grid justify-items-start gap-2">
        <label className={labelClass}>
          {text.emailLabel}
          <input
            type="email"
            name="email"
            required
            autoComplete="email"
            maxLength={254}
            className={`${inputClass} w-full min-w-0 sm:w-96`}
          />
        </label>
        <button type="submit" className={buttonClass}>
          {text.submit}
        </button>
      </form>
    </div>
  );
}
