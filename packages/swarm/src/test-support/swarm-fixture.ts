import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AsyncBullswarmStore, openAsyncStore } from '@bullswarm/store';
import { createTestDatabase } from '@bullswarm/test-support';
import { inject } from 'vitest';
import { git } from '../git/run-git';
import { type PlanLocation, planLocation } from '../plans/plan-location';
import type { PlanInput } from '../plans/plan-schema';
import { type CreateSwarmOptions, createSwarm, type Swarm } from '../store/create-swarm';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Postgres server of this run (tooling/test-support/src/postgres-setup.ts; empty: none). */
    pgUrl: string;
  }
}

/** The engine {@link openTestSwarm} opens by default (a `*.postgres.test.ts` file sets `postgres`). */
let defaultEngine: 'sqlite' | 'postgres' = 'sqlite';

/**
 * Runs this file's suites on `engine` (call before importing the suite): `postgres` gives every
 * {@link openTestSwarm} a database of its own on the run's server (`inject('pgUrl')`).
 */
export function useSwarmStoreEngine(engine: 'sqlite' | 'postgres'): void {
  defaultEngine = engine;
}

/** What the next `cleanup()` closes and drops: the stores opened since, and their databases. */
const opened: { close(): Promise<void> }[] = [];

/** Temp directories removed by `cleanup()`, which first closes the stores opened since (and drops their databases). */
export function tempDirs() {
  const dirs: string[] = [];
  return {
    make(prefix = 'bullswarm-swarm-'): string {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
      dirs.push(dir);
      return dir;
    },
    /** Await it (`afterEach(() => dirs.cleanup())`): both lists are taken at once, so a late run never removes the next test's. */
    async cleanup(): Promise<void> {
      const stores = opened.splice(0).reverse();
      const removed = dirs.splice(0);
      for (const entry of stores) await entry.close();
      for (const dir of removed) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Options of {@link openTestSwarm}. */
export type OpenTestSwarmOptions = Partial<Omit<CreateSwarmOptions, 'store'>> & {
  now?: { value: number };
  /**
   * The Postgres database to open (another host on the same database: a first store's
   * `storeUrl`, with another `hostId`). Default: on the `postgres` engine a new database of its
   * own, else `dir/bullswarm.db`.
   */
  storeUrl?: string;
  /** This store's host id (default `test-host`). */
  hostId?: string;
};

/**
 * A real store — `dir/bullswarm.db`, or the Postgres database `storeUrl` names — and the swarm
 * over it, with a settable clock. Close the store when done.
 */
export async function openTestSwarm(
  dir: string,
  options: OpenTestSwarmOptions = {},
): Promise<{
  store: AsyncBullswarmStore;
  swarm: Swarm;
  now: { value: number };
  storeUrl: string | undefined;
}> {
  const { hostId = 'test-host', now: givenNow, storeUrl: givenUrl, ...swarmOptions } = options;
  let storeUrl = givenUrl;
  if (storeUrl === undefined && defaultEngine === 'postgres') {
    const database = await createTestDatabase(inject('pgUrl'));
    opened.push({ close: () => database.drop() });
    storeUrl = database.url;
  }
  const store = await openAsyncStore({
    target:
      storeUrl === undefined
        ? { engine: 'sqlite', dbPath: join(dir, 'bullswarm.db') }
        : { engine: 'postgres', url: storeUrl, source: 'BULLSWARM_STORE_URL' },
    hostId,
    env: {},
  });
  opened.push(store);
  const now = givenNow ?? { value: Date.parse('2026-09-10T12:00:00Z') };
  const swarm = await createSwarm({ env: {}, clock: () => now.value, ...swarmOptions, store });
  return { store, swarm, now, storeUrl };
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
