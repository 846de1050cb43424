import 'server-only';
import type { FeatureJobs } from '../../delivery/job-context';
import { handle } from '../../delivery/queue/job';
import {
  enquiryEmailJob,
  enquiryWebhookJob,
  postEnquiryWebhook,
  sendEnquiryEmail,
} from './deliveries';

/**
 * The contact form's job kinds: the provider's e-mail of each enquiry (`enquiry.email`, with
 * e-mail) and its `enquiry.created` event (`enquiry.webhook`, with webhooks).
 */
export const contactJobs: FeatureJobs = ({ db, mail, post }) => [
  ...(mail
    ? [
        handle(
          enquiryEmailJob,
          sendEnquiryEmail(db, mail.send, { from: mail.from, to: mail.leadsTo }),
        ),
      ]
    : []),
  ...(post ? [handle(enquiryWebhookJob, postEnquiryWebhook(db, post), { concurrency: 4 })] : []),
];
