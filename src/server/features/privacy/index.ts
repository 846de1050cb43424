/**
 * The privacy feature's door: privacy requests under the DPDP Act (ask, confirm, honour, the
 * console's handling), the personal-data interface every feature implements, and retention.
 * Privacy imports no other feature. Other code imports only this.
 */
export { askForPrivacyLink } from './ask';
export { confirmPrivacyRequest } from './confirm';
export type { ConfirmResult } from './confirm';
export { eraseAddress } from './erase';
export type { ErasureDeps, ErasureResult } from './erase';
export { rightsFooter } from './footer';
export { privacyJobs } from './jobs';
export { forgetSentLinks } from './ask-job';
export type { FreeTable, PersonalDataHolder, Retention } from './personal-data';
export { requestIdOf } from './records';
export { forgetSentReplies } from './reply';
export {
  PRIVACY_REPLY_MAX,
  assignPrivacyRequest,
  listPrivacyRequests,
  mayHandlePrivacy,
  readPrivacySummary,
  replyToPrivacyRequest,
  viewPrivacyRequest,
} from './handling';
export { closeAbusiveRequests } from './abusive';
export { privacyPersonalData, purgeExpired } from './retention';
