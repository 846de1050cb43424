import { describe, expect, it } from 'vitest';
import { getEnv } from './env';

const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
/** An environment of only these variables. */
const env = (variables: Record<string, string>) => getEnv({ NODE_ENV: 'test', ...variables });

describe('webhook configuration (issue 12)', () => {
  it('reads comma-separated endpoints with their secret', () => {
    const parsed = env({
      WEBHOOK_URLS: ' https://crm.example/hook , http://127.0.0.1:9000/in,https://crm.example/hook',
      WEBHOOK_SECRET: secret,
    });
    expect(parsed.WEBHOOK_URLS).toEqual(['https://crm.example/hook', 'http://127.0.0.1:9000/in']);
    expect(parsed.WEBHOOK_SECRET).toBe(secret);
  });

  it('has no endpoints when unset or empty', () => {
    expect(env({}).WEBHOOK_URLS).toEqual([]);
    expect(env({ WEBHOOK_URLS: '', WEBHOOK_SECRET: '' }).WEBHOOK_URLS).toEqual([]);
  });

  it.each([
    [{ WEBHOOK_URLS: 'https://crm.example/hook' }, 'WEBHOOK_SECRET'],
    [{ WEBHOOK_SECRET: secret }, 'WEBHOOK_SECRET'],
    [{ WEBHOOK_URLS: 'http://crm.example/hook', WEBHOOK_SECRET: secret }, 'WEBHOOK_URLS'],
    [{ WEBHOOK_URLS: 'https://user:pw@crm.example/hook', WEBHOOK_SECRET: secret }, 'WEBHOOK_URLS'],
    [{ WEBHOOK_URLS: 'ftp://crm.example/', WEBHOOK_SECRET: secret }, 'WEBHOOK_URLS'],
    [
      { WEBHOOK_URLS: 'https://crm.example/hook', WEBHOOK_SECRET: 'not-a-secret' },
      'WEBHOOK_SECRET',
    ],
    [
      { WEBHOOK_URLS: 'https://crm.example/hook', WEBHOOK_SECRET: 'whsec_c2hvcnQ=' },
      'WEBHOOK_SECRET',
    ],
  ])('refuses %j', (source, variable) => {
    expect(() => env(source)).toThrow(new RegExp(`Invalid environment: .*${variable}`));
  });
});
