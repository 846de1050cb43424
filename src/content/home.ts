import { site } from './site';

/** Text of the home page (spec §2, home). Layout lives in `src/app/(home)/`. */
export const home = {
  hero: {
    eyebrow: `${site.product} by ${site.name}`,
    heading: 'One connected system for your whole hospital',
    lead: 'From registration at the front desk to the laboratory, the wards, the pharmacy store and the billing counter, every department works from the same electronic medical record.',
    points: [
      'Nine modules, from Registration to Reporting',
      'Laboratory, PACS and SNOMED CT integration',
      'Multilingual, with role-based access control',
      'Also offered as a cloud (SaaS) service',
    ],
    imageAlt:
      'Illustration: a hospital dashboard connected to patient records, the laboratory, the wards and the pharmacy store.',
  },
  whatWeDoLead:
    'We design and build the digital tools that hospitals and health facilities depend on every day.',
  modules: {
    title: 'Nine modules, one patient record',
    lead: `${site.product} follows the journey of a patient and the work of the hospital around it, from the registration desk to the management report.`,
  },
  saas: {
    title: 'Available as a cloud service',
    text: `${site.product} is also offered as software as a service (SaaS). We host, update and back up the system in the cloud for you, so your hospital needs no servers of its own: your teams sign in from a browser on the computers, tablets and phones they already use.`,
  },
} as const;
