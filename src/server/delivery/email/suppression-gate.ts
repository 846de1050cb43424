import 'server-only';
import type { SendMailOptions } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import type { Db } from '../../platform/db';
import { log } from '../../platform/log';
import { countSuppressedMail } from '../../platform/metrics';
import { addressKeys } from '../../platform/people/address-hash';
import { isSuppressed } from '../../platform/people/suppression';
import type { SendMail } from './transport';

/**
 * The one place an erasure or a withdrawal of consent holds (DPDP Act s.6(4), s.12): every e-mail
 * the site sends passes here, and a message for a visitor (`audience` `visitor`, the default)
 * with any recipient (`to`, `cc`, `bcc`) on the suppression list (any spelling of a suppressed
 * inbox: isSuppressed) is not sent at all, whoever
 * typed the address and whichever feature queued it. It resolves `suppressed` (the job is done:
 * never retried, never failed), logs `mail.suppressed` (no address) and counts
 * `nirmaya_mail_suppressed_total`. Messages for `staff` and the `resume-link` of an address's own
 * "hear from us again" request pass unchecked.
 * @param send the sender that really sends (createSmtpSender)
 * @param deps the database holding `suppressions` and the site secret the hashes are keyed with
 */
export function withSuppressionGate(
  send: SendMail,
  deps: { db: Db; secret: () => Promise<string> },
): SendMail {
  return async (message, options = {}) => {
    if ((options.audience ?? 'visitor') === 'visitor') {
      const secret = await deps.secret();
      for (const address of recipientsOf(message))
        if (await isSuppressed(deps.db, addressKeys(address, secret))) {
          log.info({ event: 'mail.suppressed' });
          countSuppressedMail();
          return 'suppressed';
        }
    }
    return send(message, options);
  };
}

type AddressField = SendMailOptions['to'];

/** Every recipient address of `message` (`to`, `cc`, `bcc`), as strings, groups flattened. */
export function recipientsOf(message: SendMailOptions): string[] {
  const fields: AddressField[] = [message.to, message.cc, message.bcc];
  const addresses: string[] = [];
  const add = (entry: unknown) => {
    if (typeof entry === 'string')
      for (const box of addressparser(entry, { flatten: true })) addresses.push(box.address);
    else if (Array.isArray(entry)) entry.forEach(add);
    else if (entry && typeof entry === 'object' && 'address' in entry)
      addresses.push(String(entry.address));
  };
  fields.forEach(add);
  return addresses.filter((address) => address !== '');
}
