import { forbidden } from 'next/navigation';

/** Where a refused console action posted without JavaScript lands: the 403 page, with 403. */
export default function ForbiddenPage(): never {
  forbidden();
}
