import { describe, expect, it } from 'vitest';
import { PEER_ADDRESS_HEADER } from '../../../lib/http/peer-address';
import { addressedHost, isSameSite, originFacts } from './same-site';

/** A request through the edge: nginx on 10.0.0.2 forwards the host the visitor addressed. */
const behindEdge = (extra: Record<string, string> = {}) =>
  new Headers({
    host: 'site-1:3000',
    'x-forwarded-host': 'www.nirmaya.example',
    [PEER_ADDRESS_HEADER]: '10.0.0.2',
    ...extra,
  });

describe('addressedHost', () => {
  it('reads the forwarded host when the peer is a trusted proxy', () => {
    expect(addressedHost(behindEdge(), 1)).toBe('www.nirmaya.example');
    expect(addressedHost(behindEdge(), ['10.0.0.0/8'])).toBe('www.nirmaya.example');
  });

  it('reads Host when no proxy is trusted or the peer is not one of them', () => {
    expect(addressedHost(behindEdge(), 0)).toBe('site-1:3000');
    expect(addressedHost(behindEdge(), ['192.168.0.0/16'])).toBe('site-1:3000');
    expect(
      addressedHost(new Headers({ host: 'a.example', 'x-forwarded-host': 'b.example' }), 1),
    ).toBe('a.example');
  });

  it('falls back to Host when the edge sent no forwarded host', () => {
    expect(
      addressedHost(new Headers({ host: 'a.example', [PEER_ADDRESS_HEADER]: '10.0.0.2' }), 1),
    ).toBe('a.example');
    expect(addressedHost(new Headers(), 1)).toBeNull();
  });
});

describe('isSameSite', () => {
  it('accepts a post whose Origin names the forwarded host behind a trusted edge', () => {
    const request = behindEdge({ origin: 'https://www.nirmaya.example' });
    expect(isSameSite(originFacts(request, 1), [])).toBe(true);
    expect(isSameSite(originFacts(request, 0), [])).toBe(false);
  });

  it('refuses a missing, null or foreign Origin', () => {
    for (const origin of [undefined, 'null', 'https://evil.example', 'not a url']) {
      const request = behindEdge(origin ? { origin } : {});
      expect(isSameSite(originFacts(request, 1), ['https://nirmaya.example']), origin).toBe(false);
    }
  });

  it('accepts an allowed origin whatever the host', () => {
    const request = new Headers({ host: 'site-1:3000', origin: 'https://nirmaya.example' });
    expect(isSameSite(originFacts(request, 0), ['https://nirmaya.example'])).toBe(true);
  });
});
