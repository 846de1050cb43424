import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
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
    name: 'seam-stands-alone',
    comment:
      "The seam runs outside Next.js's bundle: it imports src/lib and itself only (no server-only code).",
    severity: 'error',
    from: { path: '^src/seam/' },
    to: { path: ['^src/(server|components|app|content)/', 'node_modules/server-only/'] },
  },
  {
    name: 'no-diagnostics-channel',
    comment:
      "Nothing hooks Node's HTTP diagnostics channel (documented as experimental): the seam owns the path.",
    severity: 'error',
    from: { path: '^src/' },
    to: { path: 'diagnostics_channel$' },
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

  it('keeps run time off the framework: no patched http.createServer, no diagnostics channel, no read of .next/server', () => {
    const findings = [...sourceFiles('src'), ...sourceFiles('scripts')].flatMap((file) =>
      runtimeFindings(
        file,
        !file.startsWith('scripts/build/') && !file.startsWith('scripts/bench'),
      ),
    );
    console.log(`run-time rules: ${findings.length} findings`);
    expect(findings).toEqual([]);
  });

  it('its run-time rules see what they refuse (a fixture of each)', () => {
    const fixture = [
      "import { subscribe } from 'node:diagnostics_channel';",
      "const dc = require('diagnostics_channel');",
      'http.createServer = function () {};',
      "readFileSync(path.join(distDir, 'server', 'app-paths-manifest.json'));",
      "const file = '.next/server/app/index.html';",
    ].join('\n');
    const found = scan('fixture.ts', fixture, true);
    expect(found).toHaveLength(6);
  });
});

/** The TypeScript and JavaScript files under `folder` (tests and type declarations left out). */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(m?ts|tsx|m?js)$/.test(file) && !/\.(test|d)\.m?tsx?$/.test(file))
    .map((file) => path.join(folder, file).split(path.sep).join('/'));
}

/** The findings of {@link scan} in one file on disk. */
function runtimeFindings(file: string, runtime: boolean): string[] {
  return scan(file, readFileSync(file, 'utf8'), runtime);
}

/** Names of Next.js's build files under `.next/server/` that run time must not read. */
const NEXT_SERVER_FILES =
  /(^|\/)\.next\/server\b|server-reference-manifest|app-paths-manifest|required-server-files|prerender-manifest|routes-manifest/;

/**
 * What a file does that the seam's rules refuse, found in its syntax tree (not by grep, so
 * comments and docs do not count): an import or `require` of `diagnostics_channel`, an assignment
 * to any `….createServer`, and, in run-time code (`runtime`), a string naming one of Next.js's
 * build files under `.next/server/` or a `path.join`/`path.resolve` through a `'server'` folder.
 */
function scan(file: string, text: string, runtime: boolean): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(
      `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`,
    );
  const visit = (node: ts.Node) => {
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      /diagnostics_channel$/.test(node.moduleSpecifier.text)
    )
      at(node, 'imports diagnostics_channel');
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      const [first] = node.arguments;
      if (
        callee === 'require' &&
        first &&
        ts.isStringLiteral(first) &&
        /diagnostics_channel$/.test(first.text)
      )
        at(node, 'requires diagnostics_channel');
      if (
        runtime &&
        /^path\.(join|resolve)$/.test(callee) &&
        node.arguments.some((arg) => ts.isStringLiteral(arg) && arg.text === 'server')
      )
        at(node, "builds a path through Next.js's server folder");
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      node.left.name.text === 'createServer'
    )
      at(node, 'patches createServer');
    if (
      runtime &&
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      NEXT_SERVER_FILES.test(node.text)
    )
      at(node, `names a build file of Next.js: ${node.text}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
