import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '@bullswarm/swarm';

/**
 * A real git repository at `repo` (branch `main`) with one commit holding
 * `plans/<plan.id>/plan.json`: what the swarm commands' tests lead, lease and hand off in.
 * Returns the plan file's path.
 */
export function createPlanRepo(
  repo: string,
  plan: { readonly id: string } & Record<string, unknown>,
): string {
  const planFile = join(repo, 'plans', plan.id, 'plan.json');
  mkdirSync(join(repo, 'plans', plan.id), { recursive: true });
  git(repo, ['init', '-q', '-b', 'main']);
  git(repo, ['config', 'user.email', 't@example.invalid']);
  git(repo, ['config', 'user.name', 't']);
  writeFileSync(planFile, JSON.stringify(plan));
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'plan']);
  return planFile;
}
