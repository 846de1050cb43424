import type { LucideIcon } from 'lucide-react';
import {
  BarChart3,
  BedDouble,
  BookOpenText,
  ClipboardList,
  FlaskConical,
  Package,
  ReceiptIndianRupee,
  ScanLine,
  UserRound,
} from 'lucide-react';

/**
 * A module of the product (spec §3 "Module entry": id, link, title), with the content of its tab.
 * The nine modules are listed here and nowhere else: the nav dropdown, the footer, the product
 * routes and the sitemap all read this registry.
 */
export type Module = {
  /** Tab index 0-8, in the spec's order (spec §2, product page). */
  id: number;
  /** Route of the module's tab: `/products/{id}`. */
  link: `/products/${number}`;
  /** Title exactly as the spec names it. */
  title: string;
  /** One-line summary shown under the title. */
  summary: string;
  /** Prose introduction, one string per paragraph. */
  description: string[];
  /** Feature groups with their items, drawn from the spec's module list. */
  features: { heading: string; items: string[] }[];
  /** Icon from lucide-react. */
  icon: LucideIcon;
};

type ModuleContent = Omit<Module, 'id' | 'link'>;

const moduleContent = [
  {
    title: 'Registration',
    icon: UserRound,
    summary:
      'Register each patient once, with demographics, photograph, addresses, contacts and documents, and find them again with a search.',
    description: [
      'Registration is where every patient record begins. The registration desk records the patient’s demographic details, a photograph, addresses, contact details and socio-economic information, so that each patient has one record that the rest of the hospital works from.',
      'When a patient returns, staff search the register and open the existing record instead of starting a new one. Documents that belong to the patient, such as referral letters or earlier reports, are attached to the record and tagged to the visit they relate to. On a mobile device a document can be captured directly with the camera, and clinicians can add their own annotations to it.',
    ],
    features: [
      {
        heading: 'Patient record',
        items: [
          'Demographic details of every patient, recorded at registration',
          'A photograph of the patient kept with the record, to help staff identify the right person',
          'Addresses and contact details for reaching the patient or their family',
          'Socio-economic data, recorded alongside the demographic details',
          'Search of the patient register to find a returning patient',
        ],
      },
      {
        heading: 'Patient documents',
        items: [
          'Documents attached to the patient record and tagged to the visit they belong to',
          'Camera capture of documents on a mobile device, without a separate scanner',
          'Clinician annotations on patient documents',
        ],
      },
    ],
  },
  {
    title: 'Clinical Services',
    icon: ClipboardList,
    summary:
      'Record consultations in clinical forms your hospital designs, code diagnoses with ICD-10 mapping and manage drug orders in one place.',
    description: [
      'Clinical Services gives doctors and nurses the forms they fill in during a consultation or a ward round. Each hospital builds its own clinical forms from fields of the types it needs: numbers, free text, coded answers, true/false questions, dates, date-times and durations. Forms can be imported from CSV files and shared as open templates, so a well-designed form does not have to be built twice.',
      'Diagnoses are recorded with their ICD-10 mapping. Drug orders carry the route, frequency, dosage and instructions, and can be created, stopped or refilled as treatment changes; regimens that are used often can be saved as templates. Configurable patient dashboards bring together what a clinician needs to see, and a visit dashboard can be printed for the patient’s file.',
    ],
    features: [
      {
        heading: 'Clinical forms',
        items: [
          'Customizable clinical forms, designed by the hospital for its own clinics and wards',
          'Numeric, text and coded fields',
          'True/false, date, date-time and duration fields',
          'Import of forms from CSV files',
          'Sharing of forms as open templates',
        ],
      },
      {
        heading: 'Diagnoses and drug orders',
        items: [
          'Diagnoses recorded with ICD-10 mapping',
          'Drug orders that can be created, stopped or refilled',
          'Route, frequency, dosage and instructions on every drug order',
          'Drug regimen templates for treatments prescribed often',
        ],
      },
      {
        heading: 'Dashboards',
        items: [
          'Patient dashboards configured to show what each clinic needs',
          'Visit dashboards that can be printed',
          'One place to review a patient’s forms, diagnoses and drug orders',
        ],
      },
    ],
  },
  {
    title: 'Laboratory',
    icon: FlaskConical,
    summary:
      'A separate laboratory system that receives patients and orders from the EMR and sends results and referrals back.',
    description: [
      'The laboratory works in its own system, connected to the electronic medical record. When a clinician orders a test, the patient and the order arrive in the laboratory system; when the work is done, the results and any referrals go back to the EMR for the treating team. Orders do not have to be copied by hand between the ward and the laboratory.',
      'Inside the laboratory, staff print sample labels, run tests singly or as panels, enter results and validate each result by accepting or rejecting it. Results can be printed, and tests can be referred to outside laboratories when needed. A lab dashboard gives the laboratory an overview of its work, and reports list referrals and the tests performed.',
    ],
    features: [
      {
        heading: 'Connected to the EMR',
        items: [
          'Patients and test orders received from the EMR',
          'Results sent back to the EMR',
          'Referrals sent back to the EMR',
        ],
      },
      {
        heading: 'Samples, tests and results',
        items: [
          'Sample labels printed for each order',
          'Tests ordered as panels or as single tests',
          'Result entry by laboratory staff',
          'Validation of results by accepting or rejecting them',
          'Printouts of results',
        ],
      },
      {
        heading: 'Referrals and oversight',
        items: [
          'Referral of tests to outside laboratories',
          'Lab dashboard with an overview of the laboratory’s work',
          'Referral report',
          'Tests-performed report',
        ],
      },
    ],
  },
  {
    title: 'Inpatient Management',
    icon: BedDouble,
    summary:
      'Wards, rooms and beds set out as they are on the floor, with nurses admitting, discharging and transferring patients to the right bed.',
    description: [
      'Inpatient Management describes the hospital’s wards as they really are. Each ward contains physical spaces, such as rooms or bays, and each space contains beds laid out spatially, so staff see the beds arranged the way they are on the ward rather than as a plain list.',
      'Nurses admit, discharge and transfer patients, and assign a bed as part of each admission or transfer. An inpatient dashboard brings the admitted patients together in one view, so ward staff and managers can see who is in which bed and plan admissions and discharges with the current picture in front of them.',
    ],
    features: [
      {
        heading: 'Wards and beds',
        items: [
          'Wards made up of physical spaces, such as rooms or bays',
          'Beds within each physical space',
          'Beds laid out spatially, as they are on the ward',
          'Inpatient dashboard showing the admitted patients in one view',
        ],
      },
      {
        heading: 'Admission, discharge and transfer',
        items: [
          'Admission of a patient with assignment of a bed',
          'Transfer of a patient to another bed, with the new bed assigned',
          'Discharge of a patient, releasing the bed',
          'Admission, discharge and transfer carried out by nurses',
        ],
      },
    ],
  },
  {
    title: 'Stock Management',
    icon: Package,
    summary:
      'Track every product from supplier to sale, across a hierarchy of warehouses, with batches, expiry dates and stock levels.',
    description: [
      'Stock Management follows every product the hospital holds. Warehouses are organised in a hierarchy, for example a central store that supplies a pharmacy and ward stores, and each product is linked to its suppliers. Goods are procured in batches with their expiry dates, every stock movement is recorded, and stock levels are kept up to date.',
      'When a patient’s invoice is paid, the stock it covers is reduced automatically, so the stock count and the billing record stay in step without a second entry. Reports cover sales, discounts, credits, purchases, stock movement, inventory status and organizational accounts, giving stores and accounts staff the same figures.',
    ],
    features: [
      {
        heading: 'Stores, products and suppliers',
        items: [
          'Warehouse hierarchy, from central store to smaller stores',
          'Product records for everything the hospital stocks',
          'Supplier records linked to the products they supply',
        ],
      },
      {
        heading: 'Procurement and stock',
        items: [
          'Batch procurement, with the expiry date of each batch',
          'Stock movement between warehouses, recorded as it happens',
          'Stock levels for each product',
          'Automatic stock reduction when an invoice is paid',
        ],
      },
      {
        heading: 'Reports',
        items: [
          'Sales and discounts',
          'Credits',
          'Purchases',
          'Stock movement',
          'Inventory status',
          'Organizational accounts',
        ],
      },
    ],
  },
  {
    title: 'Billing & Accounting',
    icon: ReceiptIndianRupee,
    summary:
      'Draft bills created automatically from drug orders, with discounts, taxes, credit and each patient’s financial record in one place.',
    description: [
      'Billing & Accounting is set up with the hospital’s own financial parameters. When a clinician writes a drug order, a draft bill is created automatically, and the batch closest to expiry is selected, so older stock is used first. Billing staff complete the draft, apply any discounts and taxes, and take payment, either at once or later, after a period of credit.',
      'Every charge and payment becomes part of the patient’s financial record, so the billing counter can answer a patient’s questions from one place. Paying an invoice also reduces stock automatically in Stock Management, and billing reports give the accounts team a view of the hospital’s billing.',
    ],
    features: [
      {
        heading: 'Bills',
        items: [
          'Financial parameters set by the hospital',
          'Draft bills created automatically from drug orders',
          'The batch closest to expiry selected on the bill',
          'Discounts and taxes applied to bills',
        ],
      },
      {
        heading: 'Payments and records',
        items: [
          'Payment after a period of credit',
          'Financial record for each patient',
          'Automatic stock reduction when an invoice is paid',
          'Billing and accounting reports',
        ],
      },
    ],
  },
  {
    title: 'Reporting',
    icon: BarChart3,
    summary:
      'Ready-made and custom reports in PDF, CSV and HTML, from an analytics database with personal data removed.',
    description: [
      'Reporting works on an analytics database from which personal data has been removed. Managers and analysts can study activity across the hospital without working on identifiable patient records, and the day-to-day system is left to the people treating patients.',
      'A set of canned reports is ready to configure and can be produced as PDF, CSV or HTML, to print, to share or to open in a spreadsheet. When a question is not covered by a canned report, a custom report can be written for it. Data can also be migrated from CSV files, which helps when a hospital moves to Nirmaya HIMS from an earlier system.',
    ],
    features: [
      {
        heading: 'Reports',
        items: [
          'Canned reports, configurable by the hospital',
          'Reports in PDF, for printing and filing',
          'Reports in CSV, for spreadsheets',
          'Reports in HTML, for reading on screen',
          'Custom reports for questions the canned reports do not cover',
        ],
      },
      {
        heading: 'Data',
        items: [
          'Analytics database with personal data removed',
          'Analysis without access to identifiable patient records',
          'CSV-based data migration from an earlier system',
        ],
      },
    ],
  },
  {
    title: 'PACS Integration',
    icon: ScanLine,
    summary:
      'Send investigation orders to radiology devices and view the results, including DICOM images, in Nirmaya HIMS.',
    description: [
      'PACS Integration connects Nirmaya HIMS with the radiology department. A PACS, or picture archiving and communication system, is where imaging equipment stores its studies. When a clinician orders an investigation, such as an X-ray or a scan, the order is sent to the radiology devices, so the request does not have to be entered again at the machine.',
      'Once the investigation is done, the results can be viewed in Nirmaya HIMS, including the images themselves in DICOM, the standard format for medical images. The clinician who ordered the investigation sees the outcome in the same system in which the order was placed, without looking for it in a separate application.',
    ],
    features: [
      {
        heading: 'Investigation orders',
        items: [
          'Investigation orders placed by clinicians in Nirmaya HIMS',
          'Orders sent to radiology devices',
          'No second entry of the request at the device',
        ],
      },
      {
        heading: 'Results',
        items: [
          'Viewing of investigation results in Nirmaya HIMS',
          'Viewing of DICOM images',
          'Results available to the clinician who placed the order',
        ],
      },
    ],
  },
  {
    title: 'SNOMED CT Support',
    icon: BookOpenText,
    summary:
      'Search SNOMED CT terminology for diagnoses, see contraindication alerts graded by severity, and export data as FHIR.',
    description: [
      'SNOMED CT is an international clinical terminology: a shared vocabulary for recording clinical information precisely and consistently. In Nirmaya HIMS, clinicians search SNOMED CT terms when they record a diagnosis, so that diagnoses are captured with standard terms rather than in free text that differs from one clinician to the next.',
      'Contraindication alerts tell the clinician when something needs attention, and each alert carries a severity of info, warning or critical, so the serious alerts stand out from the routine ones. Data can be exported as FHIR, the HL7 standard for exchanging health information, for use by other systems that read it.',
    ],
    features: [
      {
        heading: 'Terminology',
        items: [
          'Terminology search for diagnoses',
          'Diagnoses recorded with standard SNOMED CT terms',
          'Consistent coding of diagnoses across clinicians',
        ],
      },
      {
        heading: 'Contraindication alerts',
        items: [
          'Contraindication alerts shown to the clinician',
          'Info severity, for information worth knowing',
          'Warning severity, for issues to consider before going ahead',
          'Critical severity, for the most serious alerts',
        ],
      },
      {
        heading: 'Exchange',
        items: [
          'FHIR export of data',
          'A standard format that other FHIR-capable systems can read',
          'Coded data that keeps its meaning outside Nirmaya HIMS',
        ],
      },
    ],
  },
] satisfies ModuleContent[];

/** The nine modules, in the spec's order, with their index and route. */
export const modules: readonly Module[] = moduleContent.map((content, id) => ({
  ...content,
  id,
  link: `/products/${id}` as const,
}));
