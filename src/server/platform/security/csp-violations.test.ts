import { describe, expect, it } from 'vitest';
import type { CspViolation } from '@/lib/security/csp-report';
import { createViolationLog, type ViolationEntry } from './csp-violations';

const violation = (blocked: string): CspViolation => ({
  document: 'https://nirmaya.example/',
  blocked,
  directive: 'script-src-elem',
  disposition: 'enforce',
});

describe('createViolationLog', () => {
  it('writes each violation until the window is full, then counts the rest once', () => {
    const entries: ViolationEntry[] = [];
    const record = createViolationLog({
      maxPerWindow: 2,
      windowMs: 60_000,
      write: (entry) => entries.push(entry),
    });
    record([violation('a'), violation('b'), violation('c')], 0);
    record([violation('d')], 59_999);
    expect(entries).toEqual([
      { event: 'csp_violation', ...violation('a') },
      { event: 'csp_violation', ...violation('b') },
    ]);
    record([violation('e')], 60_000);
    expect(entries.slice(2)).toEqual([
      { event: 'csp_violations_suppressed', count: 2 },
      { event: 'csp_violation', ...violation('e') },
    ]);
  });

  it('writes no count when nothing was left out', () => {
    const entries: ViolationEntry[] = [];
    const record = createViolationLog({
      maxPerWindow: 5,
      windowMs: 1_000,
      write: (entry) => entries.push(entry),
    });
    record([violation('a')], 0);
    record([violation('b')], 5_000);
    expect(entries.map((entry) => entry.event)).toEqual(['csp_violation', 'csp_violation']);
  });
});
