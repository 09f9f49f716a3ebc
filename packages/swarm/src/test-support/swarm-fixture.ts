import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedBullswarmStore, openStore } from '@bullswarm/store';
import { git } from '../git/run-git';
import { type PlanLocation, planLocation } from '../plans/plan-location';
import type { PlanInput } from '../plans/plan-schema';
import { type CreateSwarmOptions, createSwarm, type Swarm } from '../store/create-swarm';

/** Temp directories removed by `cleanup()`. */
export function tempDirs() {
  const dirs: string[] = [];
  return {
    make(prefix = 'bullswarm-swarm-'): string {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
      dirs.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A real store in `dir/bullswarm.db` and the swarm over it, with a settable clock. */
export function openTestSwarm(
  dir: string,
  options: Partial<Omit<CreateSwarmOptions, 'store'>> & { now?: { value: number } } = {},
): { store: EmbeddedBullswarmStore; swarm: Swarm; now: { value: number } } {
  const store = openStore({ dbPath: join(dir, 'bullswarm.db') });
  const now = options.now ?? { value: Date.parse('2026-09-10T12:00:00Z') };
  const swarm = createSwarm({ env: {}, clock: () => now.value, ...options, store });
  return { store, swarm, now };
}

/** A small plan: api → docs, and cli (steps write, verify), each with a gate. */
export function smallPlan(id = 'p1'): PlanInput {
  return {
    schema: 'bullswarm-plan/v1',
    id,
    title: 'test plan',
    contract: {
      goal: 'ship the api, the cli and the docs',
      authorization: ['merge lane branches into main'],
    },
    tasks: [
      {
        id: 'api',
        lane: 'build',
        gate: { command: ['node', '-e', 'process.exit(0)'] },
        steps: ['write', 'verify'],
      },
      { id: 'cli', lane: 'build', steps: ['write', 'verify'] },
      { id: 'docs', lane: 'chore', dependsOn: ['api'] },
    ],
  };
}

/** Writes `plans/<id>/plan.json` in a directory. */
export function writePlan(repo: string, plan: PlanInput): PlanLocation {
  const location = planLocation({ repo, id: plan.id });
  mkdirSync(location.dir, { recursive: true });
  writeFileSync(location.planFile, `${JSON.stringify(plan, null, 2)}\n`);
  return location;
}

/** A real git repository with one commit holding `plans/<id>/plan.json` and a README. */
export function createRepo(dir: string, plan: PlanInput = smallPlan()): { repo: string; plan: PlanLocation } {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'swarm@example.invalid']);
  git(dir, ['config', 'user.name', 'swarm test']);
  git(dir, ['config', 'commit.gpgsign', 'false']);
  writeFileSync(join(dir, 'README.md'), '# scratch\n');
  const location = writePlan(realpathSync(dir), plan);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'plan']);
  return { repo: realpathSync(dir), plan: location };
}
