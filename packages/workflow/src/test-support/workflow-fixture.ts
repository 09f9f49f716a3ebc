import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BullswarmRuntime, openRuntime } from '@bullswarm/dispatch';
import {
  createTestDatabase,
  nowEnv,
  type TestPool,
  type TestWindow,
  writeTestHome,
} from '@bullswarm/test-support';
import { inject } from 'vitest';
import type { WorkflowRunResult } from '../engine/run-options';
import { type StartWorkflowOptions, startWorkflow } from '../engine/workflow-api';
import { validateProgram } from '../program/validate-program';
import type { WorkflowProgram } from '../program/workflow-program';
import { readEvents } from '../state/event-log';
import { runPaths } from '../state/run-paths';
import type { WorkflowEvent } from '../state/workflow-event';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Postgres server of this run (tooling/test-support/src/postgres-setup.ts; empty: none). */
    pgUrl: string;
  }
}

/** The frozen "now" of workflow tests (BULLSWARM_NOW for bullswarm and the sims). */
export const TEST_NOW = Date.parse('2026-11-30T12:00:00Z');

/** One line of BULLSWARM_SIM_LOG. */
export interface SimLogLine {
  readonly pid: number;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly pool: string | null;
  readonly scenario: string | null;
  readonly startedAt: string | number;
  readonly endedAt: string | number;
  readonly exitCode: number | null;
}

/** The meter of a sim pool given no windows: 10% used, half the week gone. */
const HALF_WEEK: readonly TestWindow[] = [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }];

/** A temp home with pools, a work tree, a sim log and a runtime over them. */
export interface WorkflowFixture {
  readonly root: string;
  readonly home: string;
  readonly work: string;
  readonly simLog: string;
  readonly env: Record<string, string>;
  readonly runtime: BullswarmRuntime;
  /** Validates and runs a program in the work tree. */
  run(json: unknown, options?: Partial<StartWorkflowOptions>): Promise<WorkflowRunResult>;
  /** Validates a program (throws with its problems when invalid). */
  program(json: unknown): WorkflowProgram;
  simLogLines(): SimLogLine[];
  events(runId: string): WorkflowEvent[];
  /** Makes the work tree a git repository with one commit. */
  gitInit(): void;
  /** Another runtime on the same home. */
  openAnother(): Promise<BullswarmRuntime>;
  close(): Promise<void>;
}

const fixtures: WorkflowFixture[] = [];

let engine: 'sqlite' | 'postgres' = 'sqlite';

/**
 * Puts the stores of this test file's fixtures on `which`: a `<name>.postgres.test.ts` file calls
 * it and then imports `<name>.test.ts`, so the same suite runs on both engines. On Postgres each
 * fixture gets a database of its own (`BULLSWARM_STORE_URL` in its env, so every runtime, child
 * process and agent of the fixture shares it).
 */
export function useWorkflowStoreEngine(which: 'sqlite' | 'postgres'): void {
  engine = which;
}

/**
 * Creates a fixture over a home with `pools` (sim pools without windows get {@link HALF_WEEK});
 * call {@link closeWorkflowFixtures} from afterEach.
 */
export async function createWorkflowFixture(
  pools: readonly TestPool[],
  extraEnv: Record<string, string> = {},
): Promise<WorkflowFixture> {
  const root = mkdtempSync(join(tmpdir(), 'bullswarm-workflow-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(work, { recursive: true });
  writeTestHome(home, {
    now: TEST_NOW,
    pools: pools.map((pool) =>
      pool.windows !== undefined || pool.connector === 'echo' ? pool : { ...pool, windows: HALF_WEEK },
    ),
  });
  const simLog = join(root, 'sim.log');
  const database = engine === 'postgres' ? await createTestDatabase(inject('pgUrl')) : undefined;
  const env: Record<string, string> = {
    ...nowEnv(TEST_NOW),
    BULLSWARM_SIM_LOG: simLog,
    BULLSWARM_HOME: home,
    ...(database === undefined ? {} : { BULLSWARM_STORE_URL: database.url }),
    ...extraEnv,
  };
  const runtime = await openRuntime({ home, env, createStore: true });
  const program = (json: unknown): WorkflowProgram => {
    const result = validateProgram(json, { programDir: work });
    if (!result.ok) throw new Error(`invalid test program: ${JSON.stringify(result.problems)}`);
    return result.program;
  };
  const fixture: WorkflowFixture = {
    root,
    home,
    work,
    simLog,
    env,
    runtime,
    program,
    run: (json, options = {}) => startWorkflow({ runtime, program: program(json), cwd: work, ...options }),
    simLogLines: () =>
      existsSync(simLog)
        ? readFileSync(simLog, 'utf8')
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => JSON.parse(line) as SimLogLine)
        : [],
    events: (runId) => readEvents(runPaths(join(home, 'workflows'), runId).eventsPath),
    gitInit: () => {
      const git = (...args: string[]) =>
        execFileSync('git', args, {
          cwd: work,
          stdio: 'ignore',
          env: {
            ...process.env,
            GIT_AUTHOR_NAME: 't',
            GIT_AUTHOR_EMAIL: 't@example.com',
            GIT_COMMITTER_NAME: 't',
            GIT_COMMITTER_EMAIL: 't@example.com',
          },
        });
      git('init', '-q');
      writeFileSync(join(work, '.gitkeep'), '');
      git('add', '-A');
      git('commit', '-q', '-m', 'init');
    },
    openAnother: () => openRuntime({ home, env, createStore: true }),
    close: async () => {
      await runtime.close();
      await database?.drop();
      rmSync(root, { recursive: true, force: true });
    },
  };
  fixtures.push(fixture);
  return fixture;
}

/** Closes every fixture created so far. */
export async function closeWorkflowFixtures(): Promise<void> {
  for (const fixture of fixtures.splice(0)) await fixture.close();
}

/** The most units in flight at once, from `unit.started` / `unit.finished` events (by seq, not by time). */
export function peakFromEvents(events: readonly WorkflowEvent[], step?: string): number {
  let current = 0;
  let peak = 0;
  for (const event of [...events].sort((a, b) => a.seq - b.seq)) {
    if (step !== undefined && 'step' in event && event.step !== step) continue;
    if (event.type === 'unit.started') peak = Math.max(peak, ++current);
    else if (event.type === 'unit.finished') current--;
  }
  return peak;
}
