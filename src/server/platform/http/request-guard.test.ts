import { describe, expect, it } from 'vitest';
import { guardRequest, type BuildFacts } from './request-guard';
import { PEER_ADDRESS_HEADER } from '../../../lib/http/peer-address';

const build: BuildFacts = { actionIds: null, isApiRoute: () => null };
const site = { trust: 1, allowedOrigins: ['https://www.nirmaya.example'] };

const actionPost = (origin: string | null, extra: Record<string, string> = {}) =>
  new Request('http://127.0.0.1:3000/contact-us', {
    method: 'POST',
    headers: {
      host: '127.0.0.1:3000',
      'content-type': 'multipart/form-data; boundary=x',
      'next-action': 'a'.repeat(42),
      ...(origin ? { origin } : {}),
      ...extra,
    },
    body: '--x--\r\n',
  });

describe('guardRequest', () => {
  it('answers a console or API path whose percent-escapes do not decode with 400', async () => {
    for (const path of ['/admin/%E0%A4%A', '/admin/%', '/api/%ZZ'])
      expect(await guardRequest(new Request(`http://127.0.0.1:3000${path}`), build), path).toEqual({
        status: 400,
        reason: 'bad-encoding',
      });
    // Elsewhere the page answers as it always did (a product's first tab, the not-found page).
    for (const path of ['/admin/%E0%A4%95', '/products/%', '/no-such-page/%G1'])
      expect(await guardRequest(new Request(`http://127.0.0.1:3000${path}`), build), path).toBe(
        null,
      );
  });

  it("refuses an action post from another site's origin with 403, before its body is read", async () => {
    const refused = { status: 403, reason: 'cross-site' };
    expect(await guardRequest(actionPost('https://evil.example'), build, site)).toEqual(refused);
    expect(await guardRequest(actionPost('null'), build, site)).toEqual(refused);
    // A forged X-Forwarded-Host counts only from a trusted proxy (here none is).
    const forged = { 'x-forwarded-host': 'evil.example', [PEER_ADDRESS_HEADER]: '203.0.113.9' };
    expect(
      await guardRequest(actionPost('https://evil.example', forged), build, { ...site, trust: 0 }),
    ).toEqual(refused);
  });

  it("lets through the site's own origin, SITE_URL's, the edge's host and a post without Origin", async () => {
    expect(await guardRequest(actionPost('http://127.0.0.1:3000'), build, site)).toBe(null);
    expect(await guardRequest(actionPost('https://www.nirmaya.example'), build, site)).toBe(null);
    const edge = { 'x-forwarded-host': 'nirmaya.example', [PEER_ADDRESS_HEADER]: '127.0.0.1' };
    expect(await guardRequest(actionPost('https://nirmaya.example', edge), build, site)).toBe(null);
    expect(await guardRequest(actionPost(null), build, site)).toBe(null);
  });
});
