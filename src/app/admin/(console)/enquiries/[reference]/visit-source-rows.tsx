import { visitSourceFields, visitSourceLabels, type VisitSource } from '@/lib/visit-source';

/** The enquiry's visit source as rows of its description list ("—" for what is unknown). */
export function VisitSourceRows({ lead }: { lead: VisitSource }) {
  return visitSourceFields.map((field) => (
    <div key={field} className="contents">
      <dt className="font-semibold">{visitSourceLabels[field]}</dt>
      <dd className="break-words">{lead[field] ?? '—'}</dd>
    </div>
  ));
}
