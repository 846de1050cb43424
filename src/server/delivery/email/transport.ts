import 'server-only';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { asJobFailure } from '../queue/failure';

/**
 * Who a message is for, which decides whether the suppression gate checks its recipients
 * (src/server/delivery/email/suppression-gate.ts):
 * - `visitor` (the default): an address someone typed into the site; a suppressed one gets nothing;
 * - `staff`: the provider's own addresses (`LEADS_TO`, a demo host, operators): never checked;
 * - `resume-link`: the confirmation link of the address's own "hear from us again" request, the
 *   one e-mail a suppressed address may receive.
 */
export type MailAudience = 'visitor' | 'staff' | 'resume-link';

/**
 * Sends one message to `options.audience` (default `visitor`). Resolves `suppressed` when the
 * suppression gate withheld it (nothing was sent, nothing to retry), else once it is sent.
 * @throws JobFailure: permanent for a 5xx SMTP reply (see isPermanentFailure), else temporary.
 */
export type SendMail = (
  message: SendMailOptions,
  options?: { audience?: MailAudience },
) => Promise<void | 'suppressed'>;

/**
 * An SMTP sender for `SMTP_URL` (`smtp://user:pass@host:587`, STARTTLS when offered; `smtps://`
 * for implicit TLS on 465). Short timeouts, so an unreachable server fails fast and is retried.
 * Every e-mail the site sends goes through here, so a failure is judged in this one place.
 */
export function createSmtpSender(smtpUrl: string): SendMail {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return async (message) => {
    try {
      await transport.sendMail(message);
    } catch (error) {
      throw asJobFailure(error, isPermanentFailure(error));
    }
  };
}

/**
 * Whether a failed send will never succeed as is: the server answered with a 5xx reply (e.g.
 * 550 mailbox unavailable, 554 rejected). Connection errors and 4xx replies are temporary.
 */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
