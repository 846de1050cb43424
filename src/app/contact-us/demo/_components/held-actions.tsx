import { heldActions } from '@/content/demo-confirm';
import { CtaButton } from '@/components/ui/cta';
import { reRequestConfirmation } from '../actions';

/** The re-request action with its bound first argument (see reRequestConfirmation). */
const reRequest = reRequestConfirmation.bind(null, null);

/**
 * Under a held demo: send the request to confirm again, or to a corrected address. Plain forms
 * (they work without JavaScript); `notice` (the last post's outcome) is shown above them.
 */
export function HeldActions({ notice }: { notice?: string }) {
  return (
    <div className="mt-3 grid gap-2">
      {notice && (
        <p role="status" className="font-semibold">
          {notice}
        </p>
      )}
      <form action={reRequest}>
        <input type="hidden" name="intent" value="resend" />
        <CtaButton type="submit" size="md" intent="secondary">
          {heldActions.resend}
        </CtaButton>
      </form>
      <form action={reRequest} className="grid justify-items-start gap-1">
        <input type="hidden" name="intent" value="correct" />
        <label htmlFor="corrected-email" className="font-semibold">
          {heldActions.correctLabel}
        </label>
        <input
          id="corrected-email"
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          className="w-full max-w-md rounded border border-slate-400 px-1.5 py-1"
        />
        <p className="text-sm">{heldActions.correctHint}</p>
        <CtaButton type="submit" size="md" intent="secondary">
          {heldActions.correct}
        </CtaButton>
      </form>
    </div>
  );
}
