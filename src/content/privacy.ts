/**
 * The privacy notice's version (src/app/(legal)/privacy-policy/page.mdx): raise it, as the date of
 * the change, whenever the notice changes what is kept, for how long or who receives it. Each
 * enquiry stores the version in force when it was made (DPDP Act s.5, notice before consent).
 */
export const privacyNotice = {
  version: '2026-11-26',
} as const;

/**
 * The rights a visitor may exercise on /privacy-requests under the DPDP Act, 2023, and the way
 * back after an erasure or a withdrawal (`resume`: lifts the suppression), in the order the form
 * lists them: the label of each radio button, a line saying what happens, and whether the
 * person must write details (what to correct, who the nominee is, the grievance).
 */
export const privacyRequestKinds = {
  copy: {
    label: 'A copy of my data',
    hint: 'We e-mail you everything we hold about this address and who it was shared with (s.11).',
    needsDetails: false,
  },
  correct: {
    label: 'Correct my data',
    hint: 'Tell us what is wrong and what it should say (s.12).',
    needsDetails: true,
  },
  erase: {
    label: 'Erase my data',
    hint: 'We cancel any demo you booked, then erase your enquiries and demos (s.12).',
    needsDetails: false,
  },
  withdraw: {
    label: 'Stop contacting me / withdraw my consent',
    hint: 'We erase your enquiries and demos and send this address nothing more (s.6(4)).',
    needsDetails: false,
  },
  resume: {
    label: 'Hear from you again',
    hint: 'If you once asked us to erase your data or stop contacting you, we send this address nothing, whoever types it; confirm here to let us write to it again.',
    needsDetails: false,
  },
  nominate: {
    label: 'Nominate someone',
    hint: 'Name the person who may exercise your rights if you cannot, and how to reach them (s.14).',
    needsDetails: true,
  },
  grievance: {
    label: 'A grievance',
    hint: 'Tell us what went wrong; our grievance officer answers (s.13).',
    needsDetails: true,
  },
} as const;

/** The texts of /privacy-requests, its confirmation page and its e-mails. */
export const privacyRequestTexts = {
  title: 'Your data and your rights',
  intro:
    'Under India’s Digital Personal Data Protection Act, 2023 you may ask for a copy of the data we hold about you, its correction or erasure, that we stop contacting you, name a nominee, or raise a grievance; and, if you once did, ask to hear from us again. Tell us your e-mail address and what you would like: we send that address a link to confirm it is yours.',
  /** The one answer to every accepted request, whoever's the address (no enumeration). */
  sent: 'Thank you. If we hold data for this address (a grievance always applies; a request to hear from us again applies to an address that asked us to stop writing to it), the address can receive our e-mails and has not had its share of our links (for the day; for a request to hear from us again, for the week), it now has a link to confirm your request, valid for 24 hours. A grievance sent while another from the same address is open is added to that one, without a new link. If nothing arrives, check your spam folder, or write to us.',
  /** The same answer when the site is busy and the form came without its proof of work. */
  sentDelayed:
    'Thank you. Many requests are reaching us just now, so our e-mails without JavaScript wait their turn: if we hold data for this address (a grievance always applies; a request to hear from us again applies to an address that asked us to stop writing to it), the address can receive our e-mails and has not had its share of our links (for the day; for a request to hear from us again, for the week), a link to confirm your request will reach it within a few hours, valid for 24 hours from now. Your request is kept meanwhile. With JavaScript on, this page sends at once.',
  invalid: 'Please correct the fields marked below and send again.',
  rateLimited:
    'You have sent several requests in a short time. Please try again in a few minutes, or write to us.',
  unavailable: 'We could not take your request just now. Please try again in a minute.',
  origin: 'This form can only be sent from our website. Please reload the page and try again.',
  tooFast:
    'Please press send again: the form went a moment after the page opened, faster than we accept without JavaScript. Nothing has been sent yet; what you typed is kept.',
  formExpired:
    'This form was open for a long time. Please check your details and press the button again.',
  detailsRequired: 'Please tell us the details of your request.',
  confirmTitle: 'Confirm your request',
  confirmed:
    'Thank you: your request is confirmed. Where it needs an answer, we e-mail this address what we did, or will do, with its reference.',
  expired:
    'This link has expired: links are valid for 24 hours. Please send your request again from this page.',
  used: 'This link has already been used: your request was confirmed. Where it needed an answer, our e-mail quotes its reference.',
  invalidLink: 'This link is not valid. Please send your request again.',
} as const;
