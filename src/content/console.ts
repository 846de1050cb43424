/** Texts of the operator console (/admin): navigation, headings, notices and the sign-in mail. */

/** The console's sections, in navigation order; `adminOnly` ones are hidden from sales. */
export const consoleNav = [
  { href: '/admin', label: 'Inbox', adminOnly: false },
  { href: '/admin/spam', label: 'Spam', adminOnly: false },
  { href: '/admin/demos', label: 'Demos', adminOnly: false },
  { href: '/admin/sources', label: 'Sources', adminOnly: false },
  { href: '/admin/privacy', label: 'Privacy requests', adminOnly: true },
  { href: '/admin/operators', label: 'Operators', adminOnly: true },
  { href: '/admin/audit', label: 'Audit log', adminOnly: true },
] as const satisfies readonly { href: string; label: string; adminOnly: boolean }[];

export const consoleText = {
  title: 'Sales console',
  signIn: {
    title: 'Sign in to the sales console',
    intro:
      'Enter your work e-mail address. If it belongs to an operator, we send a sign-in link valid for 10 minutes, usable once.',
    emailLabel: 'Work e-mail',
    submit: 'Send me a sign-in link',
    sent: 'Check your inbox: if this address belongs to an operator, a sign-in link is on its way. It works once, within 10 minutes.',
    limited: 'Too many sign-in requests. Wait 15 minutes, then try again.',
    invalid: 'Enter an e-mail address such as name@hospital.example.',
    linkFailed: 'That sign-in link has expired or was already used. Ask for a new one below.',
    fresh:
      'That needs a sign-in from the last 15 minutes. We have e-mailed you a new link: it brings you back to confirm what you asked, for you alone, within 25 minutes.',
    freshLimited:
      'That needs a sign-in from the last 15 minutes, and too many links were asked for. Wait 15 minutes, then try again.',
    confirmTitle: 'Sign in to the sales console',
    confirmIntro:
      'Press the button to sign in on this device. The link works once, within 10 minutes of being sent.',
    confirmSubmit: 'Sign in',
    confirmMissing: 'This page needs the link from your sign-in e-mail. Ask for a new one.',
  },
  signOut: 'Sign out',
  signedInAs: 'Signed in as',
  privacyDue: (count: number, days: number) =>
    `${count} privacy request${count === 1 ? '' : 's'} due within ${days} days or overdue`,
  unreviewedSpam: (count: number) =>
    count === 0 ? 'No spam to review' : `${count} held as spam to review`,
  forbidden: {
    title: 'Not allowed',
    body: 'Your role does not allow this page or action. An admin can change your role.',
  },
  digest: {
    subject: (count: number) =>
      `${count} enquir${count === 1 ? 'y' : 'ies'} held as spam to review`,
    text: (count: number, url: string) =>
      `The website's bot filter is holding ${count} enquir${count === 1 ? 'y' : 'ies'} that nobody has reviewed yet. A real one is deleted unseen after the retention period.\n\nReview them in the sales console: ${url}\n`,
  },
  mail: {
    subject: 'Your sign-in link for the Nirmaya sales console',
    /** `opens`: which page the link opens (opensHome or opensPending). */
    text: (url: string, opens: string) =>
      `Open this link to sign in to the sales console:\n\n${url}\n\n${opens}\n\nIt works once, within 10 minutes. If you did not ask for it, ignore this e-mail.`,
    opensHome: (home: string) => `It opens the console's home page (${home}).`,
    opensPending: (act: string) =>
      `It opens a page where you confirm what you asked for on a sign-in older than 15 minutes: ${act}. Nothing is done until you press Confirm there.`,
  },
} as const;

/** A quarantine reason (src/server/features/contact/submit.ts) in words, for the spam list. */
/**
 * How the console marks an enquiry from a suppressed address (its owner erased their data or
 * withdrew consent; anyone may have typed it): the inbox row's mark and the enquiry page's line.
 */
export const suppressedText = {
  mark: 'suppressed',
  label: 'Address',
  notSuppressed: 'Not suppressed',
  detail:
    'Suppressed: its owner asked us to erase their data or stop contacting them, and the site sends it nothing. This enquiry may not come from them: do not write to this address.',
} as const;

export const spamReasons: Record<string, string> = {
  honeypot: 'filled in the hidden field only bots see',
  missing: 'posted without the form’s signed token (not sent from the page)',
  tampered: 'the form’s signed token was altered',
  expired: 'the form was older than 6 hours when sent',
  'too-fast': 'sent less than 3 s after the page loaded, without the JavaScript proof of work',
  'altcha-invalid': 'the proof of work was wrong',
  'altcha-replayed': 'the proof of work had already been used',
};

/** `reason` in words, or the code itself when it has none. */
export function spamReasonText(reason: string | null): string {
  return reason ? (spamReasons[reason] ?? reason) : 'no reason recorded';
}

/** The inbox's delivery filter choices. */
export const deliveryFilters = [
  { value: '', label: 'Any' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
] as const;

/** What an audit row's action means, for the audit page. */
export const auditActionLabels: Record<string, string> = {
  'sign-in': 'Signed in',
  'sign-out': 'Signed out',
  view: 'Viewed enquiry',
  export: 'Exported CSV',
  release: 'Released from spam',
  retry: 'Retried deliveries',
  acknowledge: 'Acknowledged failures',
  reschedule: 'Rescheduled demo',
  cancel: 'Cancelled demo',
  'operator-add': 'Added operator',
  'operator-role': 'Changed role',
  'operator-remove': 'Removed operator',
  'privacy-view': 'Viewed privacy request',
  'privacy-assign': 'Assigned privacy request',
  'privacy-reply': 'Answered privacy request',
  'privacy-close': 'Closed privacy request as abusive',
  read: 'Read personal data',
  refused: 'Refused',
};

/** Notices shown after an action (`?notice=` on the page it returns to). */
export const consoleNotices: Record<string, string> = {
  released: 'Released: its deliveries are queued.',
  'nothing-released': 'Nothing released (already released or not found).',
  retried: 'Failed deliveries re-queued.',
  acknowledged: 'Failed deliveries acknowledged.',
  cancelled: 'Demo cancelled: the visitor and the host are sent a cancellation.',
  rescheduled: 'Demo moved: updated invitations are queued.',
  'slot-gone': 'That time was just taken. Pick another.',
  'no-live-demo': 'There is no upcoming demo to change.',
  added: 'Operator added.',
  updated: 'Role changed.',
  unchanged: 'Nothing changed.',
  removed: 'Operator removed and signed out everywhere.',
  'last-admin': 'The last admin cannot be removed or lowered to sales.',
  invalid: 'That did not look right; nothing changed.',
  'not-found': 'Not found; nothing changed.',
  refused: 'Only an admin may do that; nothing changed.',
  erased:
    'Erased: every enquiry and demo of that address is gone, receivers are told (lead.erased) and the address is suppressed.',
  'erase-operator':
    'Refused: this address belongs to an operator of the console, and erasing it would stop them signing in (anyone can type an operator’s address into a form). Nothing was erased. If the operator is leaving, remove them on the Operators page first.',
  'erase-waiting':
    'The live demo is cancelled, but its cancellations are still being sent; nothing is erased yet. Erase again in a minute.',
  assigned: 'Request assigned.',
  replied: 'Reply queued for e-mail; the request is closed and its address and details erased.',
  'already-closed': 'That request is already closed; nothing changed.',
  'closed-abusive':
    'The ticked requests are closed as abusive: each requester is told by e-mail, their addresses and details are erased, one audit row each.',
  'nothing-closed': 'Nothing closed (none ticked, or already closed).',
  'reply-invalid':
    'Write a reply of at most 10,000 characters, without control characters; nothing was sent.',
};

/** Texts of the console's privacy-request pages and of the reply e-mail. */
export const privacyConsoleText = {
  title: 'Privacy requests',
  intro: (open: number) =>
    `${open} open request${open === 1 ? '' : 's'}, the earliest due first. Each must be answered within 90 days of its verification (DPDP Rules 2025).`,
  closedIntro: 'Closed requests: only the kind, the dates and the outcome are kept.',
  show: 'Show',
  filters: { open: 'Open requests', closed: 'Closed requests' },
  noOpen: 'No open requests.',
  noClosed: 'No closed requests.',
  openHead: ['Close', 'Reference', 'Kind', 'Verified', 'Due', 'Assigned to'],
  closeAbusive: {
    label: (reference: string) => `Close ${reference} as abusive`,
    submit: 'Close the ticked requests as abusive',
    hint: 'For requests judged abusive (a flood of grievances, say): each is closed without acting on it, its requester told so by e-mail (with how to have it dealt with after all), its address and details erased, and audited. Needs a sign-in from the last 15 minutes.',
  },
  closedHead: ['Reference', 'Kind', 'Verified', 'Due', 'Closed', 'Outcome', 'Handled by'],
  kinds: {
    copy: 'Copy of data',
    correct: 'Correction',
    erase: 'Erasure',
    withdraw: 'Withdrawal of consent',
    resume: 'Hear from us again',
    nominate: 'Nominee',
    grievance: 'Grievance',
  },
  /** The mark beside a due date: overdue, or due within the alert window (PRIVACY_DUE_ALERT_DAYS). */
  due: {
    overdue: 'Overdue',
    dueSoon: (days: number) => `Due within ${days} day${days === 1 ? '' : 's'}`,
  },
  unassigned: 'Nobody',
  detail: {
    title: (reference: string) => `Privacy request ${reference}`,
    intro: 'What the person asked, proved by the link sent to their address.',
    heading: 'The request',
    kind: 'Kind',
    status: 'State',
    statuses: { open: 'Open', closed: 'Closed' },
    requested: 'Requested',
    verified: 'Verified',
    due: 'Answer due by',
    assignedTo: 'Assigned to',
    email: 'Their address',
    details: 'What they wrote',
    addition: 'Added',
    /** How an addition reached the grievance (its provenance), under its date. */
    additionBy: {
      form: 'sent through the form; the address was not proved again',
      link: 'confirmed by a link e-mailed to the address',
      unknown: 'appended before additions were kept apart: provenance unknown',
    },
    closed: 'Closed',
    outcome: 'Outcome',
    tombstone:
      'This request is closed: its address and what the person wrote were erased; only the kind, the dates and the outcome remain.',
    back: 'All privacy requests',
  },
  assign: {
    heading: 'Who answers it',
    label: 'Assign to',
    submit: 'Assign',
  },
  reply: {
    heading: 'Answer and close',
    label: 'Reply to the person',
    hint: 'Plain text, e-mailed from the site’s address with replies going to the grievance officer. Sending it closes the request and erases its address and details.',
    submit: 'Send the reply and close the request',
  },
  /** The reply each requester gets when an admin closes their request as abusive. */
  abusiveNotice:
    'We have closed this request without acting on it: it came with many others in a short time, which we judged to be an abuse of our privacy form. If you made it yourself and meant it, reply to this e-mail and our Grievance Officer will deal with it.',
  mail: {
    subject: (reference: string) => `Your privacy request ${reference}`,
    text: (reference: string, reply: string) =>
      `${reply}\n\n--\nThis answers your privacy request ${reference} made on the Nirmaya Health website. If you are not satisfied with this answer, reply to this e-mail to reach our Grievance Officer, or complain to the Data Protection Board of India.\n`,
  },
} as const;
