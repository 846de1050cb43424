import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import type { IForbiddenRuleType } from 'dependency-cruiser';

/**
 * The walls of docs/architecture.md, as rules on the import graph of `src/` (tests left out),
 * checked with dependency-cruiser, which also follows type-only imports.
 *
 * `src/server` has four groups: `platform/` (what every feature needs), `delivery/` (the queue and
 * the channels), `features/` (one wing per capability, each with one door) and `wiring/` (composes
 * the features' registrations). Imports go down that list, never up.
 */
const platform = '^src/server/platform/';
const delivery = '^src/server/delivery/';
const features = '^src/server/features/';
const wiring = '^src/server/wiring/';
/**
 * A feature's doors: `index.ts` for server code; `routes.ts` for what only routes and server actions
 * may run (it reads the request); `proxy.ts` for what `src/proxy.ts` may run before any route (no
 * database); `client.ts` / `types.ts` where a client component needs one.
 */
const door = '^src/server/features/[^/]+/(index|proxy|routes|client|types)\\.tsx?$';

const forbidden: IForbiddenRuleType[] = [
  {
    name: 'no-cycle',
    comment: 'No module imports itself back through others, not even for a type.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'doors-only-from-outside',
    comment: 'Code outside the features reaches a feature through its door, never its insides.',
    severity: 'error',
    from: { path: '^src/', pathNot: features },
    to: { path: `${features}[^/]+/.`, pathNot: door },
  },
  {
    name: 'doors-only-between-features',
    comment: "A feature reaches another feature through that feature's door only.",
    severity: 'error',
    from: { path: `${features}([^/]+)/` },
    to: { path: features, pathNot: [`${features}$1/`, door] },
  },
  {
    name: 'platform-is-below-all',
    comment: 'The platform imports no delivery, feature or wiring code.',
    severity: 'error',
    from: { path: platform },
    to: { path: [delivery, features, wiring] },
  },
  {
    name: 'delivery-knows-no-feature',
    comment: 'The queue and the channels run and send what any feature built; they import none.',
    severity: 'error',
    from: { path: delivery },
    to: { path: [features, wiring] },
  },
  {
    name: 'features-below-wiring',
    comment: 'Features register; the wiring composes them. A feature never imports the wiring.',
    severity: 'error',
    from: { path: features },
    to: { path: wiring },
  },
  {
    name: 'queue-reaches-no-feature',
    comment:
      "Not even transitively (type-only imports included): the queue can't join a feature's table.",
    severity: 'error',
    from: { path: '^src/server/delivery/queue/' },
    to: { path: [features, wiring], reachable: true },
  },
  {
    name: 'lib-reaches-no-feature',
    comment: 'src/lib holds pure functions; nothing it imports, transitively, is a feature.',
    severity: 'error',
    from: { path: '^src/lib/' },
    to: { path: [features, wiring], reachable: true },
  },
  {
    name: 'lib-is-pure',
    comment: 'src/lib holds pure functions: no server code, components or routes.',
    severity: 'error',
    from: { path: '^src/lib/' },
    to: { path: '^src/(server|components|app)/' },
  },
  {
    name: 'server-renders-no-component',
    comment: 'Server code returns data; components and routes render it.',
    severity: 'error',
    from: { path: '^src/server/' },
    to: { path: '^src/(components|app)/' },
  },
  {
    name: 'content-is-data',
    comment: 'src/content holds texts and constants: no server code, component or route.',
    severity: 'error',
    from: { path: '^src/content/' },
    to: { path: '^src/(server|components|app)/' },
  },
];

/**
 * The folder a module belongs to, for the cycle check between folders: a feature, a platform or
 * delivery part (`platform/db`, `delivery/queue`; a file directly in `platform/` is its own part),
 * the wiring, `content`, `components`, or a module or folder of `lib/` (each stands alone: texts may
 * quote the form's limits from `lib/contact-fields.ts` while `lib/seo/` reads the texts); routes
 * are left out.
 */
function folderOf(source: string): string | undefined {
  const server = /^src\/server\/(platform|delivery|features)\/([^/.]+)/.exec(source);
  if (server) return `${server[1]}/${server[2]}`;
  if (source.startsWith('src/server/wiring/')) return 'wiring';
  const lib = /^src\/lib\/([^/.]+)/.exec(source);
  if (lib) return `lib/${lib[1]}`;
  const top = /^src\/(content|components)\//.exec(source);
  return top?.[1];
}

/** The cycles of the folder graph (Tarjan's strongly connected components of two or more). */
function folderCycles(result: ICruiseResult): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const source of result.modules) {
    const from = folderOf(source.source);
    if (!from) continue;
    for (const dependency of source.dependencies) {
      const to = folderOf(dependency.resolved);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('architecture', () => {
  it('keeps the walls: doors only, no cycle between modules or folders, each group below the next', async () => {
    const { output } = await cruise(
      ['src'],
      {
        validate: true,
        ruleSet: { forbidden },
        tsPreCompilationDeps: true,
        tsConfig: { fileName: 'tsconfig.json' },
        exclude: { path: ['\\.test\\.tsx?$', 'node_modules'] },
        doNotFollow: { path: 'node_modules' },
      },
      { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'] },
    );
    if (typeof output === 'string') throw new Error('unexpected reporter output');
    const violations = output.summary.violations.map(
      (violation: IViolation) =>
        `${violation.rule.name}: ${violation.from} -> ${violation.to}` +
        (violation.cycle
          ? ` (cycle: ${violation.cycle.map((step) => step.name).join(' -> ')})`
          : ''),
    );
    const cycles = folderCycles(output).map((cycle) => `folder-cycle: ${cycle.join(' <-> ')}`);
    console.log(
      `architecture: ${output.summary.totalCruised} modules, ${output.summary.totalDependenciesCruised} imports, ${forbidden.length + 1} rules, ${violations.length + cycles.length} violations`,
    );
    expect([...violations, ...cycles]).toEqual([]);
    expect(output.summary.totalCruised).toBeGreaterThan(100);
  });
});
