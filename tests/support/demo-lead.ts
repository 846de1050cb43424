import { randomUUID } from 'node:crypto';
import type { Db } from '@/server/platform/db';
import { leads } from '@/server/features/contact/schema';

/**
 * Stores an enquiry that asked for a demo (`NH-TEST<index>`, visitor `index`), accepted or
 * quarantined (`verdict`), for booking tests; returns its id.
 */
export async function addDemoLead(
  db: Db,
  index: number,
  verdict: 'lead' | 'spam' = 'lead',
): Promise<string> {
  const id = randomUUID();
  await db.insert(leads).values({
    id,
    reference: `NH-TEST${String(index).padStart(5, '0')}`,
    submissionId: id,
    firstName: 'Visitor',
    lastName: `No ${index}`,
    email: `visitor${index}@hospital.example`,
    organization: `Hospital ${index}`,
    subject: 'Schedule a Demo',
    verdict,
    demoRequested: true,
  });
  return id;
}
