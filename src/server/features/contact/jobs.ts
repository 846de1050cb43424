import 'server-only';
import type { FeatureJobs } from '../../delivery/job-context';
import { handle } from '../../delivery/queue/job';
import {
  enquiryEmailJob,
  enquiryWebhookJob,
  postEnquiryWebhook,
  sendEnquiryEmail,
} from './deliveries';
import {
  correctionNoteJob,
  correctionWebhookJob,
  postCorrectionEvent,
  sendCorrectionNote,
} from './correction-notices';

/**
 * The contact form's job kinds: the provider's e-mail of each enquiry (`enquiry.email`, with
 * e-mail) and its `enquiry.created` event (`enquiry.webhook`, with webhooks); a corrected
 * address's note to the sales inbox (`enquiry.corrected_note`) and event
 * (`enquiry.corrected_webhook`).
 */
export const contactJobs: FeatureJobs = ({ db, mail, post }) => [
  ...(mail
    ? [
        handle(
          enquiryEmailJob,
          sendEnquiryEmail(db, mail.send, { from: mail.from, to: mail.leadsTo }),
        ),
        handle(
          correctionNoteJob,
          sendCorrectionNote(db, mail.send, { from: mail.from, to: mail.leadsTo }),
        ),
      ]
    : []),
  ...(post
    ? [
        handle(enquiryWebhookJob, postEnquiryWebhook(db, post), { concurrency: 4 }),
        handle(correctionWebhookJob, postCorrectionEvent(db, post)),
      ]
    : []),
];
