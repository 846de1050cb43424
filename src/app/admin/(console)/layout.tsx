import Link from 'next/link';
import { consoleNav, consoleText } from '@/content/console';
import { requirePageOperator, consoleAuth } from '@/server/features/console/routes';
import { unreviewedSpamCount } from '@/server/features/console';
import { mayHandlePrivacy, readPrivacySummary } from '@/server/features/privacy';
import { signOutAction } from '../actions';
import { linkClass, secondaryButtonClass } from '../ui';

const signOut = signOutAction.bind(null, null);

/**
 * The signed-in console's frame: who is signed in, the sections their role may open, the count of
 * spam waiting for review, for admins the privacy requests due soon or overdue (when any), and
 * sign-out. Without a session it sends the browser to sign in.
 */
export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const operator = await requirePageOperator();
  const { db, env } = await consoleAuth();
  const alertDays = env.PRIVACY_DUE_ALERT_DAYS;
  const [spam, privacy] = await Promise.all([
    unreviewedSpamCount(db),
    mayHandlePrivacy(operator) ? readPrivacySummary(db, alertDays) : undefined,
  ]);
  const privacyDue = privacy ? privacy.dueSoon + privacy.overdue : 0;
  const sections = consoleNav.filter((item) => !item.adminOnly || operator.role === 'admin');
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 pb-2">
        <nav aria-label="Console">
          <ul className="flex flex-wrap gap-x-2 gap-y-1">
            {sections.map((item) => (
              <li key={item.href}>
                <Link href={item.href} prefetch={false} className={linkClass}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {privacyDue > 0 && (
            <Link
              href="/admin/privacy"
              prefetch={false}
              className="rounded bg-amber-100 px-1 font-semibold text-amber-900"
            >
              {consoleText.privacyDue(privacyDue, alertDays)}
            </Link>
          )}
          <Link
            href="/admin/spam"
            prefetch={false}
            className={
              spam ? 'rounded bg-amber-100 px-1 font-semibold text-amber-900' : 'text-muted'
            }
          >
            {consoleText.unreviewedSpam(spam)}
          </Link>
          <span className="text-muted">
            {consoleText.signedInAs} <strong className="text-ink">{operator.email}</strong> (
            {operator.role})
          </span>
          <form action={signOut}>
            <button type="submit" className={secondaryButtonClass}>
              {consoleText.signOut}
            </button>
          </form>
        </div>
      </div>
      {children}
    </div>
  );
}
