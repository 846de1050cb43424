import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

/** Next.js's redirect throws; here it throws the URL so a test can read where the action went. */
class Redirect extends Error {}
vi.mock('next/navigation', () => ({
  redirect: (url: string) => {
    throw new Redirect(url);
  },
}));

const calls: string[] = [];
const operator = {
  id: 'op-1',
  email: 'boss@nirmaya.example',
  role: 'admin' as const,
  signedInAt: new Date(),
};
vi.mock('next/headers', () => ({
  headers: async () => new Headers({ 'x-forwarded-for': '192.0.2.1' }),
}));
const dropped: unknown[][] = [];
vi.mock('./pending-act', () => ({
  PENDING_FIELD: 'pending',
  dropPendingAct: async (...args: unknown[]) => {
    dropped.push(args);
  },
}));
const freshRequests: unknown[][] = [];
vi.mock('./sign-in', () => ({
  requestFreshSignIn: async (...args: unknown[]) => {
    freshRequests.push(args);
    return 'sent';
  },
}));
vi.mock('./session', () => ({
  requireActionOperator: async (role = 'sales') => {
    calls.push(`require:${role}`);
    return operator;
  },
  consoleAuth: async () => {
    calls.push('auth');
    return { db: 'db', env: { WEBHOOK_URLS: [], TRUST_PROXY: false }, auth: 'auth' };
  },
}));
vi.mock('../../platform/audit', () => ({
  appendAudit: async (_db: unknown, actor: { email: string }, action: string) => {
    calls.push(`audit:${actor.email}:${action}`);
  },
}));

const { consoleAction, text, texts, withNotice } = await import('./action');

/** Runs `action` with a form of `entries` and returns the URL it redirected to. */
async function post(
  action: (bound: null, form: FormData) => Promise<never>,
  entries: [string, string][],
): Promise<string> {
  const form = new FormData();
  for (const [name, value] of entries) form.append(name, value);
  const error = await action(null, form).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(Redirect);
  return (error as Redirect).message;
}

describe('consoleAction', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it('checks the operator first, reads the form through the schema and redirects where run says', async () => {
    const run = vi.fn(async (input: { reference: string; ticked: string[] }) =>
      withNotice(`/admin/enquiries/${input.reference}?tab=1`, `done ${input.ticked.length}`),
    );
    const action = consoleAction(
      { role: 'admin', schema: z.object({ reference: text, ticked: texts(2) }) },
      run,
    );
    const url = await post(action, [
      ['reference', '  LEAD-1 '],
      ['ticked', 'a'],
      ['ticked', ''],
      ['ticked', 'b'],
      ['ticked', 'c'],
    ]);
    expect(calls).toEqual(['require:admin', 'auth']);
    expect(run).toHaveBeenCalledWith(
      { reference: 'LEAD-1', ticked: ['a', 'b'] },
      expect.objectContaining({ operator, db: 'db' }),
    );
    expect(url).toBe('/admin/enquiries/LEAD-1?tab=1&notice=done%202');
  });

  it('sends a form the schema refuses back to its invalid page without running', async () => {
    const run = vi.fn(async () => '/admin');
    const action = consoleAction(
      {
        role: 'admin',
        schema: z.object({ confirm: text.pipe(z.literal('erase')) }),
        invalid: () => withNotice('/admin/enquiries/X', 'invalid'),
      },
      run,
    );
    expect(await post(action, [['confirm', 'nope']])).toBe('/admin/enquiries/X?notice=invalid');
    expect(run).not.toHaveBeenCalled();
    expect(calls).toEqual(['require:admin']);
  });

  it('appends the audit row of its act before running it, as the operator', async () => {
    const action = consoleAction({ schema: z.object({}), audit: 'sign-out' }, async () => {
      calls.push('run');
      return '/admin/sign-in';
    });
    expect(await post(action, [])).toBe('/admin/sign-in');
    expect(calls).toEqual(['require:sales', 'auth', 'audit:boss@nirmaya.example:sign-out', 'run']);
  });

  it('keeps a dangerous act of a stale sign-in pending and mails a link, running nothing', async () => {
    freshRequests.length = 0;
    const run = vi.fn(async () => '/admin/privacy');
    const action = consoleAction(
      {
        role: 'admin',
        act: 'privacy-close-abusive',
        fresh: true,
        schema: z.object({ reference: texts(200) }),
      },
      run,
    );
    operator.signedInAt = new Date(Date.now() - 16 * 60_000);
    const url = await post(action, [
      ['reference', 'PR-ONE'],
      ['reference', 'PR-TWO'],
    ]);
    expect(url).toBe('/admin/sign-in?fresh=sent');
    expect(run).not.toHaveBeenCalled();
    expect(freshRequests).toHaveLength(1);
    const [, asker, act, fields] = freshRequests[0]!;
    expect(asker).toBe(operator);
    expect(act).toBe('privacy-close-abusive');
    expect(fields).toEqual({ reference: ['PR-ONE', 'PR-TWO'] });
    // Signed in within 15 minutes: the act runs, and the pending act it was confirmed from goes.
    operator.signedInAt = new Date(Date.now() - 14 * 60_000);
    dropped.length = 0;
    expect(
      await post(action, [
        ['reference', 'PR-ONE'],
        ['pending', 'pending-id'],
      ]),
    ).toBe('/admin/privacy');
    expect(run).toHaveBeenCalledTimes(1);
    expect(freshRequests).toHaveLength(1);
    expect(dropped).toEqual([['db', 'pending-id', operator.id]]);
  });
});
