import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fieldLength, inputMaxLength, overLimitFields } from './contact-fields';
import { contactFields, contactLimits, contactSchema, fieldErrors } from './contact-schema';

const valid = {
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha@hospital.example',
  organization: 'City General Hospital',
  subject: 'Demo',
  message: '',
};

describe('contactSchema', () => {
  it('trims every value and defaults the message', () => {
    const parsed = contactSchema.parse({
      ...valid,
      message: undefined,
      firstName: '  Asha ',
      email: ' asha@hospital.example\n',
    });
    expect(parsed).toEqual({ ...valid, message: '' });
  });

  it('keeps line breaks and tabs in the message only', () => {
    expect(contactSchema.parse({ ...valid, message: 'a\r\n\tb' }).message).toBe('a\r\n\tb');
    const result = contactSchema.safeParse({ ...valid, organization: 'a\nb' });
    expect(result.success).toBe(false);
  });

  it('accepts every field at its maximum length and refuses one more', () => {
    for (const field of contactFields) {
      if (field === 'email') continue;
      const max = contactLimits[field];
      expect(contactSchema.safeParse({ ...valid, [field]: 'x'.repeat(max) }).success).toBe(true);
      const over = contactSchema.safeParse({ ...valid, [field]: 'x'.repeat(max + 1) });
      expect(over.success || fieldErrors(over.error)).toEqual({
        [field]: expect.stringContaining(`${max}`),
      });
    }
  });

  it('counts characters as code points, a line break as one, after trimming', () => {
    expect(fieldLength('  Asha ')).toBe(4);
    expect(fieldLength('😀😀')).toBe(2);
    expect(fieldLength('क्षि')).toBe(4);
    expect(fieldLength('a\r\nb')).toBe(fieldLength('a\nb'));
    expect(fieldLength('a\r\nb')).toBe(3);
  });

  it('applies the same rule as the browser: at the limit in code points passes, one more fails', () => {
    for (const field of contactFields) {
      if (field === 'email') continue;
      const max = contactLimits[field];
      const atLimit =
        'नमस्ते😀'.repeat(max / 10) + '😀'.repeat(max - fieldLength('नमस्ते😀'.repeat(max / 10)));
      expect(fieldLength(atLimit)).toBe(max);
      expect(atLimit.length).toBeGreaterThan(max);
      expect(atLimit.length).toBeLessThanOrEqual(inputMaxLength(field));
      expect(contactSchema.safeParse({ ...valid, [field]: atLimit }).success).toBe(true);
      expect(overLimitFields({ [field]: atLimit })).toEqual({});
      const over = contactSchema.safeParse({ ...valid, [field]: atLimit + 'क' });
      expect(over.success || fieldErrors(over.error)).toEqual(
        overLimitFields({ [field]: atLimit + 'क' }),
      );
    }
  });

  it('reports one message per invalid field', () => {
    const result = contactSchema.safeParse({});
    expect(result.success || fieldErrors(result.error)).toEqual({
      firstName: 'Enter your first name.',
      lastName: 'Enter your last name.',
      email: 'Enter your e-mail address.',
      organization: 'Enter your organization.',
      subject: 'Enter a subject.',
    });
  });

  it('never throws and only passes values within the rules (property)', () => {
    const anyText = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme', maxLength: 300 }),
    );
    fc.assert(
      fc.property(
        fc.record(Object.fromEntries(contactFields.map((f) => [f, anyText]))),
        (input) => {
          const result = contactSchema.safeParse(input);
          if (!result.success) return;
          for (const field of contactFields) {
            const value = result.data[field];
            expect(value).toBe(value.trim());
            expect(fieldLength(value)).toBeLessThanOrEqual(contactLimits[field]);
            if (field !== 'message') {
              expect(value).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
              expect(value.length).toBeGreaterThan(0);
            }
          }
          expect(result.data.email).toMatch(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts well-formed single-line values (property)', () => {
    const line = (max: number) =>
      fc
        .string({ minLength: 1, maxLength: max })
        .filter((s) => s.trim() !== '' && !/[\p{Cc}\u2028\u2029]/u.test(s));
    fc.assert(
      fc.property(
        line(100),
        line(100),
        line(200),
        line(200),
        (firstName, lastName, organization, subject) => {
          expect(
            contactSchema.safeParse({ ...valid, firstName, lastName, organization, subject })
              .success,
          ).toBe(true);
        },
      ),
    );
  });
});
