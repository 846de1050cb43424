import { contactLimits } from '@/lib/contact-fields';
import { ACTION_BODY_LIMIT_KB, URL_LIMIT_BYTES } from '@/lib/http/request-limits';

/** What a refusal page says: its heading and paragraphs. */
export type RequestErrorText = { title: string; paragraphs: string[] };

const number = (n: number) => n.toLocaleString('en-IN');

/**
 * The pages the proxy answers a bad request with (src/server/platform/http/request-guard.ts), by status.
 * 404 uses the site's 404 page (src/app/not-found.tsx).
 */
export const requestErrors = {
  400: {
    title: 'This request could not be read',
    paragraphs: [
      'Your browser sent something this site cannot read: a form that was cut off or changed on the way, or data in a format the site does not accept. Nothing was stored.',
      'Go back, reload the page and try again. If you were sending the contact form, open it afresh.',
    ],
  },
  403: {
    title: 'This form was sent from another site',
    paragraphs: [
      'The forms of this site are accepted only from its own pages, so that no other site can send them in your name. Nothing was stored.',
      'Open the page on this site and send the form from there.',
    ],
  },
  405: {
    title: 'This address does not accept that request',
    paragraphs: [
      'The pages of this site can only be read. Enquiries are sent with the form on the Contact Us page.',
    ],
  },
  413: {
    title: 'Your message is too large to send',
    paragraphs: [
      `The contact form accepts at most ${ACTION_BODY_LIMIT_KB} KB (${number(ACTION_BODY_LIMIT_KB * 1024)} bytes) in one submission. The fields allow far less: ${contactLimits.firstName} characters for a name and ${number(contactLimits.message)} for the message. Nothing was sent.`,
      "Go back with your browser's Back button: with JavaScript on, what you typed is still in the form. Shorten the longest field and submit again.",
    ],
  },
  414: {
    title: 'This address is too long',
    paragraphs: [
      `Addresses on this site are at most ${number(URL_LIMIT_BYTES)} characters long. Check the link you followed, or start again from the home page.`,
    ],
  },
} as const satisfies Record<number, RequestErrorText>;

export type RequestErrorStatus = keyof typeof requestErrors;
