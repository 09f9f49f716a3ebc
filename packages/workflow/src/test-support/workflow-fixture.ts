import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BullswarmRuntime, openRuntime } from '@bullswarm/dispatch';
import { type StartWorkflowOptions, startWorkflow } from '../engine/workflow-api';
import type { WorkflowRunResult } from '../engine/workflow-runner';
import { validateProgram } from '../program/validate-program';
import type { WorkflowProgram } from '../program/workflow-program';
import { readEvents } from '../state/event-log';
import { runPaths } from '../state/run-paths';
import type { WorkflowEvent } from '../state/workflow-event';

/** The frozen "now" of workflow tests (BULLSWARM_NOW for bullswarm and the sims). */
export const TEST_NOW = Date.parse('2026-11-30T12:00:00Z');

/** One window of a pool's meter, its reset relative to TEST_NOW. */
export interface WindowSpec {
  readonly kind: 'five_hour' | 'weekly' | 'monthly';
  readonly usedPct: number;
  readonly resetsInMin: number;
}

/** A pool of a test home (sim by default; `connector: 'echo'` for echo pools). */
export interface PoolSpec {
  readonly account: string;
  readonly connector?: 'sim' | 'sim-codex' | 'echo';
  readonly enabled?: boolean;
  readonly windows?: readonly WindowSpec[];
  /** `<home>/<sim|sim-codex>/<account>/scenario.json` (sim pools). */
  readonly scenario?: unknown;
}

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

const WINDOW_MINUTES = { five_hour: 300, weekly: 10_080, monthly: 43_200 } as const;
const HALF_WEEK: readonly WindowSpec[] = [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }];

/**
 * Writes a real bullswarm home with the given pools (state.json, sim meter and scenario files),
 * as `packages/dispatch/src/test-support/sim-home.ts` does.
 */
export function writeHome(home: string, pools: readonly PoolSpec[]): void {
  const addedAt = new Date(TEST_NOW).toISOString();
  mkdirSync(home, { recursive: true });
  const state = {
    version: 1,
    pools: pools.map((pool) => {
      const connector = pool.connector ?? 'sim';
      return {
        id: `${connector}:${pool.account}`,
        connector,
        account: pool.account,
        enabled: pool.enabled ?? true,
        models: {},
        addedAt,
      };
    }),
    assignments: {},
    config: { inflightPenaltyPct: 3, connectors: [] },
  };
  writeFileSync(join(home, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
  for (const pool of pools) {
    if (pool.connector === 'echo') continue;
    const simHome = join(home, pool.connector ?? 'sim', pool.account);
    mkdirSync(simHome, { recursive: true });
    const windows = pool.windows ?? HALF_WEEK;
    writeFileSync(
      join(simHome, 'meter.json'),
      `${JSON.stringify(
        {
          readAt: addedAt,
          windows: windows.map((w) => ({
            kind: w.kind,
            usedPct: w.usedPct,
            resetsAt: new Date(TEST_NOW + w.resetsInMin * 60_000).toISOString(),
            windowMinutes: WINDOW_MINUTES[w.kind],
          })),
        },
        null,
        2,
      )}\n`,
    );
    if (pool.scenario !== undefined) {
      writeFileSync(join(simHome, 'scenario.json'), `${JSON.stringify(pool.scenario, null, 2)}\n`);
    }
  }
}

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
  close(): void;
}

const fixtures: WorkflowFixture[] = [];

/** Creates a fixture; call {@link closeWorkflowFixtures} from afterEach. */
export async function createWorkflowFixture(
  pools: readonly PoolSpec[],
  extraEnv: Record<string, string> = {},
): Promise<WorkflowFixture> {
  const root = mkdtempSync(join(tmpdir(), 'bullswarm-workflow-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(work, { recursive: true });
  writeHome(home, pools);
  const simLog = join(root, 'sim.log');
  const env: Record<string, string> = {
    BULLSWARM_NOW: new Date(TEST_NOW).toISOString(),
    BULLSWARM_SIM_LOG: simLog,
    BULLSWARM_HOME: home,
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
    close: () => {
      runtime.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  fixtures.push(fixture);
  return fixture;
}

/** Closes every fixture created so far. */
export function closeWorkflowFixtures(): void {
  for (const fixture of fixtures.splice(0)) fixture.close();
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
