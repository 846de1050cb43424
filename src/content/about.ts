import type { LucideIcon } from 'lucide-react';
import {
  BarChart3,
  BedDouble,
  ClipboardList,
  FlaskConical,
  Languages,
  ReceiptIndianRupee,
  ShieldCheck,
  UserRound,
} from 'lucide-react';
import { site } from './site';

/** A feature group of the About Us page (spec §1: eight groups, two of them named). */
export type FeatureGroup = {
  /** Short heading of the group. */
  title: string;
  /** One or two sentences on what the group covers, in the spec's words. */
  text: string;
  /** Icon from lucide-react. */
  icon: LucideIcon;
};

/** Content of the About Us page. */
export type About = {
  /** Introductory paragraphs: who the provider is and what the product does. */
  intro: string[];
  /** Paragraph on the provider's open-source contributions. */
  openSource: string;
  /** The eight feature groups of the product (spec §1). */
  featureGroups: FeatureGroup[];
};

/** About Us content. Claims only what the spec supports (DESIGN.md §6). */
export const about = {
  intro: [
    `${site.name} was established in ${site.foundedYear}. We build ${site.product}, a hospital information-management system for hospitals and health facilities: an electronic medical record with laboratory, stock, billing and reporting sub-systems.`,
    `${site.product} follows a patient from the registration desk through consultations, laboratory tests, radiology and a stay on the ward, to the bill and the management report. Each department works in the module made for it, and the modules are connected: laboratory orders arrive from the EMR and results go back to it, drug orders become draft bills, and a paid invoice reduces stock.`,
  ],
  openSource: `${site.name} contributes to open-source health projects. ${site.product} is built around open standards for health information: ICD-10 and SNOMED CT for diagnoses, FHIR for exporting data and DICOM for medical images. Clinical forms can be shared as open templates, so the work one facility puts into a good form can help others.`,
  featureGroups: [
    {
      title: 'Patient registration and records',
      text: 'Demographics, photographs, addresses, contacts and socio-economic data, a searchable patient register, and patient documents tagged to visits, with camera capture on mobile and clinician annotations.',
      icon: UserRound,
    },
    {
      title: 'Clinical forms and orders',
      text: 'Customizable clinical forms, diagnoses with ICD-10 mapping and SNOMED CT terminology search, drug orders that can be created, stopped or refilled, drug regimen templates, and contraindication alerts graded info, warning or critical.',
      icon: ClipboardList,
    },
    {
      title: 'Laboratory and radiology',
      text: 'A separate lab system that receives patients and orders from the EMR and sends results and referrals back, and PACS integration that sends investigation orders to radiology devices and shows results, including DICOM images.',
      icon: FlaskConical,
    },
    {
      title: 'Inpatient and bed management',
      text: 'An inpatient dashboard, and wards containing physical spaces containing beds laid out spatially, with admission, discharge and transfer by nurses with bed assignment.',
      icon: BedDouble,
    },
    {
      title: 'Stock, billing and accounting',
      text: 'A warehouse hierarchy with batch procurement and expiry dates, draft bills created automatically from drug orders, discounts and taxes, patient financial records, and stock reduced automatically when an invoice is paid.',
      icon: ReceiptIndianRupee,
    },
    {
      title: 'Reporting and data exchange',
      text: 'An analytics database with personal data removed, configurable canned reports in PDF, CSV and HTML, custom reports, CSV-based data migration and FHIR export.',
      icon: BarChart3,
    },
    {
      title: 'Multilingual support',
      text: `${site.product} offers multilingual support, so that staff can work in the languages their facility uses.`,
      icon: Languages,
    },
    {
      title: 'Role-based access control',
      text: 'Access is role-based: what each user can see and do in the system depends on the role the hospital assigns to them.',
      icon: ShieldCheck,
    },
  ],
} satisfies About;
