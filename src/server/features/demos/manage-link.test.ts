import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { manageLinkResponse } from './manage-link';

const site = 'https://www.nirmaya.example';
const token = 'm1.4f1c2a7e-3b9d-4c55-9a1e-2d6f8b0c7e11.c2lnbmF0dXJl';
const request = (path: string, init: ConstructorParameters<typeof NextRequest>[1] = {}) =>
  new NextRequest(new URL(path, site), init);

describe('the manage link exchange (token out of the URL)', () => {
  it('answers the link with 303 to the address without the token, setting a strict, path-scoped, http-only cookie', () => {
    const response = manageLinkResponse(
      request(`/contact-us/demo/manage?token=${token}&outcome=cancelled`),
      true,
    )!;
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `${site}/contact-us/demo/manage?outcome=cancelled`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin');
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie.split('; ').sort()).toEqual(
      [
        `nirmaya-demo-manage=${token}`,
        'Path=/contact-us/demo/manage',
        'HttpOnly',
        'SameSite=strict',
        'Secure',
      ].sort(),
    );
  });

  it('leaves Secure off when SITE_URL is plain http (localhost)', () => {
    const response = manageLinkResponse(request(`/contact-us/demo/manage?token=${token}`), false)!;
    expect(response.headers.get('set-cookie')).not.toMatch(/Secure/i);
  });

  it('sets no cookie for an empty or oversized token, and still drops it from the URL', () => {
    for (const value of ['', 'x'.repeat(300)]) {
      const response = manageLinkResponse(request(`/contact-us/demo/manage?token=${value}`), true)!;
      expect(response.status).toBe(303);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  it('lets the page render otherwise: no token, a POST, another path, or a same-site visit', () => {
    expect(manageLinkResponse(request('/contact-us/demo/manage'), true)).toBeNull();
    expect(
      manageLinkResponse(
        request(`/contact-us/demo/manage?token=${token}`, { method: 'POST' }),
        true,
      ),
    ).toBeNull();
    expect(manageLinkResponse(request(`/contact-us/demo?token=${token}`), true)).toBeNull();
    expect(
      manageLinkResponse(
        request('/contact-us/demo/manage', { headers: { 'sec-fetch-site': 'same-origin' } }),
        true,
      ),
    ).toBeNull();
  });

  it('hands another site’s navigation that came without the cookie to a same-site reload, and only that', async () => {
    const crossSite = { 'sec-fetch-site': 'cross-site' };
    const handOver = manageLinkResponse(
      request('/contact-us/demo/manage?outcome=x"><b', { headers: crossSite }),
      true,
    )!;
    expect(handOver.status).toBe(200);
    const html = await handOver.text();
    expect(html).toContain(
      '<meta http-equiv="refresh" content="0;url=/contact-us/demo/manage?outcome=x%22%3E%3Cb">',
    );
    expect(html).not.toContain('<script');
    expect(
      manageLinkResponse(
        request('/contact-us/demo/manage', {
          headers: { ...crossSite, cookie: `nirmaya-demo-manage=${token}` },
        }),
        true,
      ),
    ).toBeNull();
  });
});
