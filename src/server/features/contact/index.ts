/**
 * The contact feature's door: enquiries (the form's service, the inbox, quarantine, CSV), their
 * e-mail and webhook jobs, their table and personal-data registration. Other code imports only this.
 */
export { correctEnquiryAddress } from './address-correction';
export type { DeliveryTargets } from './deliveries';
export { describeDeliveries } from './delivery-summary';
export { countLeads, exportLeadsCsv, listLeads } from './inbox';
export type { LeadFilter, LeadSummary } from './inbox';
export { contactJobs } from './jobs';
export { contactPersonalData, enquiriesFrom, enquiryAddressOf, enquiryIdOf } from './personal-data';
export { listSpam, releaseSpam } from './quarantine';
export type { ReleaseHook, ReleaseResult, ReleaseTargets } from './quarantine';
export { leads } from './schema';
export { toCsv } from './csv';
export {
  contactChallenge,
  contactPageSettings,
  sourcePageOf,
  submitContactForm,
  visitSourceOf,
} from './service';
