import type { Refusal } from '@/lib/http/request-limits';

/** Names React gives the hidden fields of a form bound to a server action (no JavaScript). */
const ACTION_PREFIX = '$ACTION_';
const ACTION_REF = '$ACTION_REF_';
const ACTION_ID = '$ACTION_ID_';

/** Deepest nesting of the JSON React encodes for this site's action arguments (the form state). */
const MAX_DEPTH = 16;

/**
 * Checks that a parsed server-action POST has the shape React and Next.js decode without error,
 * so a malformed one is refused with 400 or 404 instead of failing inside Next.js with 500:
 * - with a `Next-Action` header (the form sent by JavaScript), the id must be one of `actionIds`
 *   and field `0` the arguments as plain JSON (see `isPlainReply`): the previous state and the
 *   form (`$K<n>`), the two arguments `useActionState` passes to this site's actions (the booking
 *   action takes a bound `null` in the state's place, so it has the same shape);
 * - without (the form posted by the browser alone), exactly one `$ACTION_REF_*` or `$ACTION_ID_*`
 *   field naming a known id, its descriptor `{"id":…,"bound":"$@n"}` and the bound arguments as
 *   plain JSON: the previous state alone (React appends the form). An action without bound
 *   arguments (`$ACTION_ID_*`, `"bound":null`) would get the form as its first argument: 400.
 * @param form the body, parsed as `multipart/form-data`
 * @param nextAction the `Next-Action` header, or null
 * @param actionIds the ids of the build's server actions (server-reference-manifest.json)
 * @returns the refusal (404 for an unknown or stale action id, 400 for anything else), or null
 */
export function checkActionForm(
  form: FormData,
  nextAction: string | null,
  actionIds: ReadonlySet<string>,
): Refusal | null {
  if (nextAction !== null) {
    if (!actionIds.has(nextAction)) return { status: 404, reason: 'unknown-action' };
    const args = form.get('0');
    return isPlainReply(args) && isArguments(args, 2)
      ? null
      : { status: 400, reason: 'malformed-action-arguments' };
  }
  const keys = [...form.keys()].filter((key) => key.startsWith(ACTION_PREFIX));
  const actions = keys.filter((key) => key.startsWith(ACTION_REF) || key.startsWith(ACTION_ID));
  if (actions.length !== 1)
    return { status: 400, reason: actions.length ? 'several-actions' : 'no-action' };
  if (keys.some((key) => typeof form.get(key) !== 'string'))
    return { status: 400, reason: 'file-in-action-field' };
  const [action] = actions as [string];
  // An action posted without its bound previous state would get the form as its first argument.
  if (action.startsWith(ACTION_ID)) {
    return actionIds.has(action.slice(ACTION_ID.length))
      ? { status: 400, reason: 'unbound-action' }
      : { status: 404, reason: 'unknown-action' };
  }
  const prefix = `${ACTION_PREFIX}${action.slice(ACTION_REF.length)}:`;
  const descriptor = single(form, `${prefix}0`);
  const parsed = descriptor === null ? null : parseJson(descriptor);
  // Next.js reads the id from the descriptor's text before parsing it: both must agree.
  if (!isDescriptor(parsed) || !descriptor!.startsWith(`{"id":${JSON.stringify(parsed.id)}`))
    return { status: 400, reason: 'malformed-action-descriptor' };
  if (!actionIds.has(parsed.id)) return { status: 404, reason: 'unknown-action' };
  if (parsed.bound === null) return { status: 400, reason: 'unbound-action' };
  const bound = single(form, `${prefix}${parseInt(parsed.bound.slice(2), 16)}`);
  return isPlainReply(bound) && isArguments(bound, 1)
    ? null
    : { status: 400, reason: 'malformed-action-arguments' };
}

/**
 * Whether `value` is JSON that React's `decodeReply` reads as plain data: nested at most
 * `MAX_DEPTH` deep, every string either free of React's `$` escapes or one of the forms the
 * browser's encoder writes for this form (`$$…` for a literal `$`, `$undefined`, `$K<n>` for the
 * FormData argument). Anything else (a reference to a missing part, a stream, a typed array…)
 * could make decoding throw or wait forever.
 */
export function isPlainReply(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const root = parseJson(value);
  if (root === undefined) return false;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (
      typeof node === 'string' &&
      node.startsWith('$') &&
      !/^\$(\$|undefined$|K\d{1,9}$)/.test(node)
    )
      return false;
    if (node !== null && typeof node === 'object') {
      if (depth >= MAX_DEPTH) return false;
      for (const child of Object.values(node)) stack.push([child, depth + 1]);
    }
  }
  return true;
}

/** Whether `json` is an array of `count` arguments, the last one the form when there are two. */
function isArguments(json: string, count: 1 | 2): boolean {
  const args = parseJson(json);
  return (
    Array.isArray(args) &&
    args.length === count &&
    (count === 1 || /^\$K\d+$/.test(String(args[1])))
  );
}

function isDescriptor(value: unknown): value is { id: string; bound: `$@${string}` | null } {
  if (value === null || typeof value !== 'object') return false;
  const { id, bound } = value as Record<string, unknown>;
  return (
    typeof id === 'string' &&
    (bound === null || (typeof bound === 'string' && /^\$@[0-9a-f]{1,6}$/.test(bound)))
  );
}

/** The one string value of `name`, or null when it is missing, repeated or a file. */
function single(form: FormData, name: string): string | null {
  const values = form.getAll(name);
  return values.length === 1 && typeof values[0] === 'string' ? values[0] : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
