import type { Metadata } from 'next';
import { consoleAuth, requirePageOperator } from '@/server/features/console/routes';
import { listOperators, operatorRoles } from '@/server/features/console';
import { addOperatorAction, changeRoleAction, removeOperatorAction } from '../../actions';
import {
  buttonClass,
  Cell,
  DataTable,
  inputClass,
  labelClass,
  Notice,
  PageHeading,
  secondaryButtonClass,
  Time,
} from '../../ui';

export const metadata: Metadata = { title: 'Operators' };

const addOperator = addOperatorAction.bind(null, null);
const changeRole = changeRoleAction.bind(null, null);
const removeOperator = removeOperatorAction.bind(null, null);

/** Admins only: who may sign in, with which role; add, change a role, remove (signs them out). */
export default async function OperatorsPage({
  searchParams,
}: {
  searchParams: Promise<{ notice?: string | string[] }>;
}) {
  await requirePageOperator('admin');
  // Only the notice is read from the URL: the add form always starts empty, so a link can never
  // hand an admin a filled-in form (a fresh sign-in's act comes back on its own page).
  const { notice } = await searchParams;
  const { db } = await consoleAuth();
  const operators = await listOperators(db);
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <PageHeading
        title="Operators"
        intro="Sales work enquiries, spam and demos; admins also manage operators and read the audit log."
      />
      <Notice notice={notice} />
      <form action={addOperator} className="flex flex-wrap items-end gap-2">
        <label className={labelClass}>
          E-mail
          <input type="email" name="email" required className={inputClass} />
        </label>
        <label className={labelClass}>
          Role
          <select name="role" defaultValue="sales" className={inputClass}>
            {operatorRoles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          Add operator
        </button>
      </form>
      <DataTable caption="Operators" head={['E-mail', 'Added', 'Role', 'Remove']}>
        {operators.map((operator) => (
          <tr key={operator.id}>
            <Cell className="wrap-anywhere">{operator.email}</Cell>
            <Cell className="whitespace-nowrap">
              <Time at={operator.createdAt} />
            </Cell>
            <Cell>
              <form action={changeRole} className="flex flex-wrap items-center gap-1">
                <input type="hidden" name="email" value={operator.email} />
                <select
                  name="role"
                  defaultValue={operator.role}
                  aria-label={`Role of ${operator.email}`}
                  className={inputClass}
                >
                  {operatorRoles.map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
                <button type="submit" className={secondaryButtonClass}>
                  Change
                </button>
              </form>
            </Cell>
            <Cell>
              <form action={removeOperator}>
                <input type="hidden" name="email" value={operator.email} />
                <button
                  type="submit"
                  className={secondaryButtonClass}
                  aria-label={`Remove ${operator.email}`}
                >
                  Remove
                </button>
              </form>
            </Cell>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
