import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const EXAMPLES = fileURLToPath(new URL('../../../examples/workflows/', import.meta.url));
const programs = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith('.json'))
  .sort();

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** A git work tree with one committed file and one change, as the examples expect to find. */
function workTree(): string {
  const tree = dirs.make('bullswarm-examples-tree-');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: tree,
      stdio: 'ignore',
    });
  git('init', '-q');
  writeFileSync(join(tree, 'README.md'), '# a project\n');
  git('add', '.');
  git('commit', '-q', '-m', 'start');
  writeFileSync(join(tree, 'README.md'), '# a project\n\nNow with a change.\n');
  return tree;
}

// examples/workflows/README.md: "To try them without any subscription, run `bullswarm demo --keep`
// and use its home". Every program there runs to the end on the demo's simulated pools.
describe('the example workflow programs on the demo pools', () => {
  it('finds the examples', () => {
    expect(programs).toContain('review-changed-files.json');
    expect(programs).toContain('docs-write-review.json');
  });

  it.each(programs)('%s validates and runs to the end (exit 0, every step ok)', async (name) => {
    const home = dirs.make('bullswarm-examples-home-');
    const demo = await bullswarm(['demo', '--home', home]);
    expect(demo.exitCode, demo.stderr).toBe(0);
    const file = join(EXAMPLES, name);
    const validate = await bullswarm(['workflow', 'validate', file], { home });
    expect(validate.exitCode, validate.stdout + validate.stderr).toBe(0);
    const result = await bullswarm(['workflow', 'goal', file, '--json'], { home, cwd: workTree() });
    const report = JSON.parse(result.stdout) as {
      outcome: string;
      steps: { id: string; status: string; why?: string }[];
    };
    expect(
      report.steps.map((step) => [step.id, step.status, step.why ?? '']),
      result.stderr,
    ).toEqual(report.steps.map((step) => [step.id, 'ok', '']));
    expect(report.outcome).toBe('ok');
    expect(result.exitCode).toBe(0);
  });
});
