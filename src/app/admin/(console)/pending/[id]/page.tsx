import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { consoleAuth, requirePageOperator } from '@/server/features/console/routes';
import { describePendingAct, findPendingAct, PENDING_FIELD } from '@/server/features/console';
import {
  addOperatorAction,
  changeRoleAction,
  closeAbusiveAction,
  erasePersonAction,
  removeOperatorAction,
} from '../../../actions';
import { buttonClass, linkClass, PageHeading } from '../../../ui';

export const metadata: Metadata = { title: 'Confirm' };

/** The console action that does each kind of pending act (the `act` of its consoleAction). */
const actions: Record<string, (bound: null, form: FormData) => Promise<never>> = {
  'operator-add': addOperatorAction,
  'operator-role': changeRoleAction,
  'operator-remove': removeOperatorAction,
  erase: erasePersonAction,
  'privacy-close-abusive': closeAbusiveAction,
};

/**
 * Where a fresh sign-in's link returns: the dangerous act the signed-in operator asked for on a
 * stale sign-in, in words, with a button that posts it as they sent it. Shown only to the
 * operator who asked, while it lasts; anyone else, or later, lands on the console's home.
 */
export default async function PendingActPage({ params }: { params: Promise<{ id: string }> }) {
  const operator = await requirePageOperator();
  const { id } = await params;
  const { db } = await consoleAuth();
  const pending = await findPendingAct(db, id, operator.id);
  const action = pending && actions[pending.act];
  if (!pending || !action) redirect('/admin');
  const confirm = action.bind(null, null);
  return (
    <div className="max-w-xl">
      <PageHeading
        title="Confirm what you asked for"
        intro="You asked for this on a sign-in older than 15 minutes. Nothing has been done yet."
      />
      <form action={confirm} className="grid justify-items-start gap-2">
        <input type="hidden" name={PENDING_FIELD} value={pending.id} />
        {Object.entries(pending.fields).flatMap(([name, values]) =>
          values.map((value, index) => (
            <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
          )),
        )}
        <p className="wrap-anywhere">You asked to {describePendingAct(pending)}.</p>
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" className={buttonClass}>
            Confirm
          </button>
          <Link href="/admin" prefetch={false} className={linkClass}>
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}
