import { describe, expect, it } from 'vitest';
import { cruise, type IViolation } from 'dependency-cruiser';
import type { IForbiddenRuleType } from 'dependency-cruiser';

/**
 * The layers of docs/architecture.md, as rules on the import graph of `src/` (tests left out),
 * checked with dependency-cruiser, which also follows type-only imports.
 */
const server = '^src/server/';
const forbidden: IForbiddenRuleType[] = [
  {
    name: 'no-cycle',
    comment: 'No module imports itself back through others, not even for a type.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'queue-knows-no-feature',
    comment:
      'The queue runs jobs of any kind; features register their handlers in src/server/jobs.ts.',
    severity: 'error',
    from: { path: '^src/server/queue/' },
    to: { path: server, pathNot: `${server}(queue/|db/|log\\.ts|metrics\\.ts)` },
  },
  {
    name: 'channels-know-no-feature',
    comment: 'E-mail and webhooks deliver what a feature built; they import no feature.',
    severity: 'error',
    from: { path: `${server}(email|webhooks)/` },
    to: { path: server, pathNot: `${server}(email/|webhooks/|queue/|db/|log\\.ts)` },
  },
  {
    name: 'lib-is-pure',
    comment: 'src/lib holds pure functions: no server code, components or routes.',
    severity: 'error',
    from: { path: '^src/lib/' },
    to: { path: '^src/(server|components|app)/' },
  },
];

describe('architecture', () => {
  it('has no import cycle and keeps the queue, the channels and lib/ free of features', async () => {
    const result = await cruise(
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
    if (typeof result.output === 'string') throw new Error('unexpected reporter output');
    const violations = result.output.summary.violations.map(
      (violation: IViolation) =>
        `${violation.rule.name}: ${violation.from} -> ${violation.to}` +
        (violation.cycle
          ? ` (cycle: ${violation.cycle.map((step) => step.name).join(' -> ')})`
          : ''),
    );
    console.log(
      `architecture: ${result.output.summary.totalCruised} modules, ${result.output.summary.totalDependenciesCruised} imports, ${violations.length} violations`,
    );
    expect(violations).toEqual([]);
    expect(result.output.summary.totalCruised).toBeGreaterThan(100);
  });
});
