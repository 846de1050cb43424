import 'server-only';
import nodemailer, { type SendMailOptions } from 'nodemailer';

/** Sends one message; rejects with nodemailer's error (with `responseCode` for SMTP replies). */
export type SendMail = (message: SendMailOptions) => Promise<void>;

/**
 * An SMTP sender for `SMTP_URL` (`smtp://user:pass@host:587`, STARTTLS when offered; `smtps://`
 * for implicit TLS on 465). Short timeouts, so an unreachable server fails fast and is retried.
 */
export function createSmtpSender(smtpUrl: string): SendMail {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return async (message) => {
    await transport.sendMail(message);
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
