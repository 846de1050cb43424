import { describe, expect, it } from 'vitest';
import {
  contactFields,
  isNameField,
  multiLineFields,
  nameFields,
  singleLineFields,
  visitorName,
} from './contact-fields';

describe('the contact-field registry', () => {
  it('splits the fields into one-line ones, in form order, and the multi-line message', () => {
    expect(singleLineFields).toEqual(['firstName', 'lastName', 'email', 'organization', 'subject']);
    expect(multiLineFields).toEqual(['message']);
    expect([...singleLineFields, ...multiLineFields].sort()).toEqual([...contactFields].sort());
  });

  it('names the visitor by the name fields', () => {
    expect(nameFields.every(isNameField)).toBe(true);
    expect(isNameField('email')).toBe(false);
    expect(visitorName({ firstName: 'Asha', lastName: 'Rao' })).toBe('Asha Rao');
  });
});
