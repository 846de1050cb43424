import { describe, expect, it } from 'vitest';
import { checkActionForm, isPlainReply } from './action-form';

const id = '6031143875fe8cdc2c19b8988273cfc0a8d408c376';
const ids = new Set([id]);

/** The hidden fields React writes into a form bound with useActionState (no JavaScript). */
function mpa(overrides: Record<string, string | null> = {}): FormData {
  const fields: Record<string, string | null> = {
    $ACTION_REF_1: '',
    '$ACTION_1:0': JSON.stringify({ id, bound: '$@1' }),
    '$ACTION_1:1': '[{"status":"idle"}]',
    $ACTION_KEY: 'k1',
    firstName: 'Asha',
    ...overrides,
  };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== null) form.append(name, value);
  return form;
}

/** The body React's encodeReply sends with JavaScript: arguments in `0`, the form under `1_`. */
function js(args = '[{"status":"idle"},"$K1"]'): FormData {
  const form = new FormData();
  form.append('1_firstName', 'Asha');
  form.append('0', args);
  return form;
}

describe('checkActionForm', () => {
  it('passes the shapes the browser sends, with and without JavaScript', () => {
    expect(checkActionForm(mpa(), null, ids)).toBeNull();
    expect(
      checkActionForm(mpa({ '$ACTION_1:1': '[{"values":{"firstName":"$$5"}}]' }), null, ids),
    ).toBeNull();
    expect(checkActionForm(js(), id, ids)).toBeNull();
  });

  it('answers an unknown or stale action id with 404', () => {
    expect(checkActionForm(js(), `${id.slice(0, -1)}0`, ids)).toEqual({
      status: 404,
      reason: 'unknown-action',
    });
    const stale = mpa({ '$ACTION_1:0': JSON.stringify({ id: 'ab'.repeat(21), bound: '$@1' }) });
    expect(checkActionForm(stale, null, ids)?.status).toBe(404);
    expect(
      checkActionForm(
        mpa({ $ACTION_REF_1: null, [`$ACTION_ID_${'cd'.repeat(21)}`]: '' }),
        null,
        ids,
      )?.status,
    ).toBe(404);
  });

  it('answers what React would fail to decode, or call the action wrongly with, with 400', () => {
    for (const form of [
      mpa({ $ACTION_REF_1: null }),
      mpa({ $ACTION_REF_2: '' }),
      mpa({ '$ACTION_1:0': '{bad' }),
      mpa({ '$ACTION_1:0': ` {"id":"${id}","bound":"$@1"}` }),
      mpa({ '$ACTION_1:0': JSON.stringify({ id, bound: null }) }),
      mpa({ $ACTION_REF_1: null, [`$ACTION_ID_${id}`]: '' }),
      mpa({ '$ACTION_1:1': '["$Q1"]' }),
      mpa({ '$ACTION_1:1': 'null' }),
      mpa({ '$ACTION_1:1': '[1,2]' }),
    ])
      expect(checkActionForm(form, null, ids)?.status).toBe(400);
    for (const args of ['[{"status":"idle"},"x"]', '[{},"$K1",3]', '5', '["$@1","$K1"]', '{'])
      expect(checkActionForm(js(args), id, ids)?.status).toBe(400);
  });

  it('reads as plain only JSON free of React references, and not too deep', () => {
    expect(isPlainReply('[{"a":"$$b","c":"$undefined"},"$K1"]')).toBe(true);
    expect(isPlainReply('["$D2020-01-01"]')).toBe(false);
    expect(isPlainReply(`${'['.repeat(17)}${']'.repeat(17)}`)).toBe(false);
    expect(isPlainReply(new File([], 'x'))).toBe(false);
  });
});
