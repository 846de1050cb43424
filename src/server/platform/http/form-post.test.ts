import '@test/quiet-logs';
import { describe, expect, it } from 'vitest';
import { visitorFormAction } from './form-post';
import { PEER_ADDRESS_HEADER } from '../../../lib/http/peer-address';

const headers = new Headers({
  origin: 'https://www.nirmaya.example',
  host: 'www.nirmaya.example',
  [PEER_ADDRESS_HEADER]: '203.0.113.9',
});

describe('visitorFormAction', () => {
  it("gives the handler the request's facts and the form's limit", async () => {
    const post = await visitorFormAction(
      headers,
      { failed: 'test.failed', unavailable: () => null },
      async (given) => given,
    );
    expect(post?.request).toEqual({
      origin: 'https://www.nirmaya.example',
      host: 'www.nirmaya.example',
      clientAddress: '203.0.113.9',
    });
    expect(post?.rateLimit).toEqual({
      max: post!.env.RATE_LIMIT_MAX,
      windowMs: post!.env.RATE_LIMIT_WINDOW_MINUTES * 60_000,
    });
  });

  it('answers unavailable instead of throwing when the handler fails', async () => {
    const answer = await visitorFormAction(
      headers,
      { failed: 'test.failed', unavailable: () => 'unavailable' as const },
      async (): Promise<'ok'> => {
        throw new Error('database down');
      },
    );
    expect(answer).toBe('unavailable');
  });
});
