import { forbidden } from 'next/navigation';
import { connection } from 'next/server';

/** Where a refused console action posted without JavaScript lands: the 403 page, with 403. */
export default async function ForbiddenPage(): Promise<never> {
  // Rendered per request, never prerendered: a prerendered copy would be served with 200.
  await connection();
  forbidden();
}
