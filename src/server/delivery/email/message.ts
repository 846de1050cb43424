import 'server-only';

/* Helpers every e-mail template of the site uses (the enquiry notification, the demo e-mails). */

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The host part of an address like `Name <user@host>`, for Message-IDs (`localhost` if none). */
export function domainOf(address: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(address);
  return match?.[1] ?? 'localhost';
}
