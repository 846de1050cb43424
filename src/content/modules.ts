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
    summary: 'TODO',
    description: ['TODO'],
    features: [],
  },
  {
    title: 'Clinical Services',
    icon: ClipboardList,
    summary: 'TODO',
    description: ['TODO'],
    features: [],
  },
  {
    title: 'Laboratory',
    icon: FlaskConical,
    summary: 'TODO',
    description: ['TODO'],
    features: [],
  },
  {
    title: 'Inpatient Management',
    icon: BedDouble,
    summary: 'TODO',
    description: ['TODO'],
    features: [],
  },
  {
    title: 'Stock Management',
    icon: Package,
    summary: 'TODO',
    description: ['TODO'],
    features: [],
  },
  {
    title: 'Billing & Accounting',
    icon: ReceiptIndianRupee,
    summary: 'TODO',
    description: ['TODO'],
    features: [],
  },
  {
    title: 'Reporting',
    icon: BarChart3,
    summary: 'TODO',
    description: ['TODO'],
    features: [],
  },
  {
    title: 'PACS Integration',
    icon: ScanLine,
    summary: 'TODO',
    description: ['TODO'],
    features: [],
  },
  {
    title: 'SNOMED CT Support',
    icon: BookOpenText,
    summary: 'TODO',
    description: ['TODO'],
    features: [],
  },
] satisfies ModuleContent[];

/** The nine modules, in the spec's order, with their index and route. */
export const modules: readonly Module[] = moduleContent.map((content, id) => ({
  ...content,
  id,
  link: `/products/${id}` as const,
}));
