import 'server-only';
import { asDeliveryFailure, type JobSender } from '../outbox/delivery';
import { buildNotification, type NotificationAddresses } from './notification';
import { isPermanentFailure, type SendMail } from './transport';

/**
 * The outbox's `email` channel: e-mails a claimed job's lead to the provider with `send`.
 * @throws DeliveryFailure, permanent for a 5xx SMTP reply (see isPermanentFailure).
 */
export function createEmailSender(send: SendMail, addresses: NotificationAddresses): JobSender {
  return async (job) => {
    try {
      await send(buildNotification(job.lead, addresses));
    } catch (error) {
      throw asDeliveryFailure(error, isPermanentFailure(error));
    }
  };
}
