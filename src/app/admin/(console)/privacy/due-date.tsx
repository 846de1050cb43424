import { privacyConsoleText } from '@/content/console';
import { dueState } from '@/lib/privacy-alarm';
import { cn } from '@/lib/utils';
import { Time } from '../../ui';

/**
 * A privacy request's due date, marked in words (not by colour alone) when it is overdue or due
 * within `alertDays` days of `now` (PRIVACY_DUE_ALERT_DAYS).
 */
export function DueDate({ dueAt, now, alertDays }: { dueAt: Date; now: Date; alertDays: number }) {
  const state = dueState(dueAt, now, alertDays);
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Time at={dueAt} />
      {state !== 'later' && (
        <strong
          className={cn(
            'rounded px-1 font-semibold',
            state === 'overdue' ? 'bg-red-100 text-red-900' : 'bg-amber-100 text-amber-900',
          )}
        >
          {state === 'overdue'
            ? privacyConsoleText.due.overdue
            : privacyConsoleText.due.dueSoon(alertDays)}
        </strong>
      )}
    </span>
  );
}
