import type { Metadata } from 'next';
import { connection } from 'next/server';
import { MailCheck } from 'lucide-react';
import { CtaButton } from '@/components/ui/cta';
import { confirmPage } from '@/content/demo-confirm';
import { MANAGE_REFERRER_POLICY, confirmView } from '@/server/features/demos';
import type { ConfirmView } from '@/server/features/demos/types';
import { errorFacts, log } from '@/server/platform/log';
import { VisitorTime } from '../_components/visitor-time';
import { confirmDemoHold } from './actions';

/** Not indexed; other sites learn at most the origin (the link's query carries its token). */
export const metadata: Metadata = {
  title: confirmPage.title,
  robots: { index: false, follow: false },
  referrer: MANAGE_REFERRER_POLICY,
};

/** The confirm action with its bound first argument (see confirmDemoHold). */
const confirm = confirmDemoHold.bind(null, null);

type ConfirmPageProps = {
  searchParams: Promise<{ token?: string | string[]; outcome?: string | string[] }>;
};

async function loadView(token: string | undefined): Promise<ConfirmView> {
  try {
    return await confirmView(token);
  } catch (error) {
    log.error({ event: 'demo.confirm_page_failed', error: errorFacts(error) });
    return { kind: 'invalid' };
  }
}

/** The notice after a post that came back here: too many posts, or the database failed. */
function noticeFor(outcome: string | string[] | undefined): string | undefined {
  if (outcome === 'limited') return confirmPage.limited;
  if (outcome === 'unavailable') return confirmPage.unavailable;
  return undefined;
}

/**
 * The page the e-mailed confirm link opens (`DEMO_CONFIRM_EMAIL`): the held demo and one button,
 * "Confirm my demo", a plain form that works without JavaScript. Opening the page changes nothing
 * (mail scanners open links); only the button's POST confirms. A confirmed or cancelled demo is
 * shown as such; a bad or expired link says so. Not indexed.
 */
export default async function ConfirmDemoPage({ searchParams }: ConfirmPageProps) {
  await connection();
  const { token, outcome } = await searchParams;
  const value = typeof token === 'string' ? token : undefined;
  const view = await loadView(value);
  const notice = noticeFor(outcome);
  return (
    <div className="mx-auto max-w-page px-2 py-4 sm:px-3 md:py-6">
      <h1 className="text-4xl sm:text-5xl">{confirmPage.title}</h1>
      <div className="mt-3 grid max-w-3xl gap-3">
        {notice && (
          <p
            role="alert"
            className="rounded border border-amber-700 bg-amber-50 px-2 py-1.5 text-amber-900"
          >
            {notice}
          </p>
        )}
        {view.kind === 'invalid' ? (
          <p>{confirmPage.invalid}</p>
        ) : (
          <div className="rounded border border-brand-200 bg-brand-50 p-2 sm:p-3">
            <MailCheck aria-hidden="true" className="size-4 text-brand-700" />
            <p className="mt-1 text-lg" data-testid="confirm-time">
              <strong>
                {view.demo.day}, {view.demo.time}
              </strong>{' '}
              with {view.demo.hostName}.
            </p>
            <VisitorTime start={view.demo.start} />
            {view.kind === 'pending' && (
              <form action={confirm} className="mt-2 grid justify-items-start gap-2">
                <input type="hidden" name="token" value={value} />
                <p>
                  {view.lapsed
                    ? confirmPage.lapsed(view.heldUntil)
                    : confirmPage.pending(view.heldUntil)}
                </p>
                <CtaButton type="submit" size="md">
                  {confirmPage.button}
                </CtaButton>
              </form>
            )}
            {view.kind === 'confirmed' && <p className="mt-1">{confirmPage.confirmed}</p>}
            {view.kind === 'released' && <p className="mt-1">{confirmPage.released}</p>}
          </div>
        )}
      </div>
    </div>
  );
}
