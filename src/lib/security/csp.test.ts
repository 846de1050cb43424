import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, createNonce } from './csp';

/** Parses a policy into directive name -> source list. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  it('locks down defaults, objects, base, forms and framing', () => {
    const policy = directives(contentSecurityPolicy({}));
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
  });

  it('allows scripts from self and the given hashes and nonce only', () => {
    const hashes = ["'sha256-AAA='", "'sha256-BBB='"];
    const policy = directives(contentSecurityPolicy({ scriptHashes: hashes, nonce: 'abc' }));
    expect(policy.get('script-src')).toEqual(["'self'", "'nonce-abc'", ...hashes]);
  });

  it('never allows unsafe-inline or unsafe-eval for scripts', () => {
    const policy = contentSecurityPolicy({
      scriptHashes: ["'sha256-x='"],
      nonce: 'n',
      https: true,
    });
    const scripts = directives(policy).get('script-src') ?? [];
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(policy).not.toContain('unsafe-eval');
  });

  it('reports violations to the site, by report-to and by report-uri', () => {
    const policy = directives(contentSecurityPolicy({}));
    expect(policy.get('report-to')).toEqual(['csp']);
    expect(policy.get('report-uri')).toEqual(['/api/csp-report']);
  });

  it('upgrades insecure requests only over HTTPS', () => {
    expect(
      directives(contentSecurityPolicy({ https: true })).has('upgrade-insecure-requests'),
    ).toBe(true);
  });
});

describe('createNonce', () => {
  it('returns distinct base64 values of 16 random bytes', () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });
});

describe('contentSecurityPolicy in development', () => {
  it('allows eval only for next dev', () => {
    expect(contentSecurityPolicy({ development: true })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy({ development: false })).not.toContain("'unsafe-eval'");
  });
});
