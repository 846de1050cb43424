import { describe, expect, it } from 'vitest';
import { buildNotification } from './notification';

const lead = {
  id: '4f1c2a7e-3b9d-4c55-9a1e-2d6f8b0c7e11',
  reference: 'NH-7K3P9QXD2M',
  createdAt: new Date('2026-03-05T09:30:00.000Z'),
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha.rao@hospital.example',
  organization: 'City <General> Hospital',
  subject: 'Laboratory module',
  message: 'We would like to know more.\nThank you.',
};
const addresses = {
  from: 'Nirmaya website <no-reply@nirmaya.example>',
  to: 'leads@nirmaya.example',
};

describe('buildNotification', () => {
  it('lists every field of the enquiry under its form label, the message last', () => {
    const mail = buildNotification(lead, addresses);
    expect(mail.text).toBe(
      [
        'New enquiry NH-7K3P9QXD2M from the website (received 2026-03-05T09:30:00.000Z).',
        '',
        'First Name: Asha',
        'Last Name: Rao',
        'Email: asha.rao@hospital.example',
        'Organization: City <General> Hospital',
        'Subject: Laboratory module',
        '',
        'Message:',
        'We would like to know more.',
        'Thank you.',
        '',
        'Reply to this e-mail to answer the visitor.',
      ].join('\n'),
    );
    expect(mail.html).toBe(
      [
        '<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">',
        '<p>New enquiry <strong>NH-7K3P9QXD2M</strong> from the website (received 2026-03-05T09:30:00.000Z).</p>',
        '<table cellpadding="4" style="border-collapse:collapse">',
        '<tr><th align="left" style="vertical-align:top">First Name</th><td>Asha</td></tr>',
        '<tr><th align="left" style="vertical-align:top">Last Name</th><td>Rao</td></tr>',
        '<tr><th align="left" style="vertical-align:top">Email</th><td>asha.rao@hospital.example</td></tr>',
        '<tr><th align="left" style="vertical-align:top">Organization</th><td>City &lt;General&gt; Hospital</td></tr>',
        '<tr><th align="left" style="vertical-align:top">Subject</th><td>Laboratory module</td></tr>',
        '</table>',
        '<p><strong>Message:</strong></p>',
        '<p style="white-space:pre-wrap">We would like to know more.\nThank you.</p>',
        '<p>Reply to this e-mail to answer the visitor.</p>',
        '</body></html>',
      ].join('\n'),
    );
  });

  it('writes (none) for an empty message and replies to the visitor by name', () => {
    const mail = buildNotification({ ...lead, message: '' }, addresses);
    expect(mail.text).toContain('\nMessage:\n(none)\n');
    expect(mail.html).toContain('<p style="white-space:pre-wrap">(none)</p>');
    expect(mail.replyTo).toEqual({ name: 'Asha Rao', address: 'asha.rao@hospital.example' });
    expect(mail.subject).toBe('Website enquiry NH-7K3P9QXD2M: Laboratory module');
    expect(mail.messageId).toBe('<enquiry.4f1c2a7e-3b9d-4c55-9a1e-2d6f8b0c7e11@nirmaya.example>');
  });
});
