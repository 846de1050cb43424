// @vitest-environment jsdom
import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  contactFields,
  fieldDefinition,
  inputMaxLength,
  type ContactField,
} from '@/lib/contact-fields';
import { ContactForm } from './contact-form';

// The server action runs on the server only; rendering the form never calls it.
vi.mock('./actions', () => ({ sendEnquiry: vi.fn() }));

/** The form's control of `field`. */
function controlOf(form: HTMLElement, field: ContactField) {
  return form.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${field}"]`);
}

describe('ContactForm, built from the field registry', () => {
  it('shows a labelled control for every field, in registry order, as the registry defines it', () => {
    const { container } = render(<ContactForm token="token" defaultSubject="" notice={null} />);
    const names = [...container.querySelectorAll('input, textarea')]
      .map((control) => control.getAttribute('name'))
      .filter((name) => (contactFields as readonly (string | null)[]).includes(name));
    expect(names).toEqual([...contactFields]);
    for (const field of contactFields) {
      const definition = fieldDefinition(field);
      const control = controlOf(container, field)!;
      const label = container.querySelector(`label[for="${control.id}"]`);
      expect(label?.textContent).toMatch(new RegExp(`^${definition.label}`));
      expect(control.required).toBe(definition.required !== undefined);
      expect(control.maxLength).toBe(inputMaxLength(field));
      if (definition.kind === 'lines') {
        expect(control.tagName).toBe('TEXTAREA');
        expect(control.getAttribute('rows')).toBe(String(definition.rows));
      } else {
        expect(control.tagName).toBe('INPUT');
        expect(control.getAttribute('type')).toBe(definition.kind === 'email' ? 'email' : 'text');
        expect(control.getAttribute('autocomplete')).toBe(definition.autoComplete ?? null);
      }
    }
  });

  it('sets two consecutive half-width fields side by side and every other field on a row', () => {
    const { container } = render(<ContactForm token="token" defaultSubject="" notice={null} />);
    const form = container.querySelector('form')!;
    const rows = [...form.children]
      .map((row) =>
        [...row.querySelectorAll('input, textarea')]
          .map((control) => control.getAttribute('name') as ContactField)
          .filter((name) => contactFields.includes(name)),
      )
      .filter((row) => row.length > 0);
    const half = (field: ContactField | undefined) => {
      const definition = field && fieldDefinition(field);
      return definition ? definition.kind !== 'lines' && definition.width === 'half' : false;
    };
    expect(rows.flat()).toEqual([...contactFields]);
    for (const [index, row] of rows.entries()) {
      if (row.length === 2) expect(row.every(half)).toBe(true);
      else expect(row.length === 1 && half(row[0]) && half(rows[index + 1]?.[0])).toBe(false);
    }
    expect(rows.some((row) => row.length === 2)).toBe(true);
  });
});
