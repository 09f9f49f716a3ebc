import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConnectorManifestInput, defineConnector, type ManifestConnector } from '@bullswarm/connectors';
import type { AsyncBullswarmStore } from '@bullswarm/store';
import { createTestDatabase, nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { inject } from 'vitest';
import type { DispatchEvent, DispatchRequest } from '../dispatch/dispatch-types';
import { type BullswarmRuntime, openRuntime } from '../runtime/open-runtime';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Postgres server of this run (tooling/test-support/src/postgres-setup.ts; empty: none). */
    pgUrl: string;
  }
}

/** The frozen "now" of dispatch tests (BULLSWARM_NOW for bullswarm and the sims). */
export const TEST_NOW = Date.parse('2026-11-30T12:00:00Z');

/** One line of `BULLSWARM_SIM_LOG` (written by each sim invocation at exit). */
export interface SimLogLine {
  readonly pid: number;
  readonly ppid: number;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly pool: string | null;
  readonly scenario: string | null;
  readonly scenarioOrigin: string | null;
  readonly childPid?: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** A real home with sim pools, a work tree, an output directory and a runtime over them. */
export interface DispatchFixture {
  readonly home: string;
  /** The agent's working directory. */
  readonly work: string;
  /** Where attempt files go. */
  readonly out: string;
  readonly simLog: string;
  readonly env: Record<string, string>;
  readonly runtime: BullswarmRuntime;
  /** The runtime's store (open from the start). */
  readonly store: AsyncBullswarmStore;
  /** Every event of every `request()` made through this fixture. */
  readonly events: DispatchEvent[];
  /** A request over this fixture (action `run`, lane analyze, single run) with overrides. */
  request(overrides?: Partial<DispatchRequest>): DispatchRequest;
  /** The sim log so far. */
  simLogLines(): SimLogLine[];
  /** Another runtime on the same home (what a second bullswarm process sees). */
  openAnother(): Promise<BullswarmRuntime>;
  close(): Promise<void>;
}

const open: DispatchFixture[] = [];

let engine: 'sqlite' | 'postgres' = 'sqlite';

/**
 * Puts the stores of this test file's fixtures on `which`: a `<name>.postgres.test.ts` file calls
 * it and then imports `<name>.test.ts`, so the same suite runs on both engines. On Postgres each
 * fixture gets a database of its own (`BULLSWARM_STORE_URL` in its env, so every runtime, child
 * process and agent of the fixture shares it).
 */
export function useDispatchStoreEngine(which: 'sqlite' | 'postgres'): void {
  engine = which;
}

/**
 * Creates a fixture; `env` is the runtime's environment (and so the base of every agent's):
 * `BULLSWARM_NOW`, `BULLSWARM_SIM_LOG` and whatever the test adds (clock overrides).
 */
export async function createDispatchFixture(
  pools: readonly TestPool[],
  env: Record<string, string> = {},
): Promise<DispatchFixture> {
  const home = writeTestHome(mkdtempSync(join(tmpdir(), 'bullswarm-dispatch-')), { now: TEST_NOW, pools });
  const scratch = mkdtempSync(join(tmpdir(), 'bullswarm-dispatch-work-'));
  const work = join(scratch, 'work');
  const out = join(scratch, 'out');
  mkdirSync(work, { recursive: true });
  const simLog = join(scratch, 'sim.log');
  const database = engine === 'postgres' ? await createTestDatabase(inject('pgUrl')) : undefined;
  const fullEnv: Record<string, string> = {
    ...nowEnv(TEST_NOW),
    BULLSWARM_SIM_LOG: simLog,
    ...(database === undefined ? {} : { BULLSWARM_STORE_URL: database.url }),
    ...env,
  };
  const runtime = await openRuntime({ home, env: fullEnv, createStore: true });
  const events: DispatchEvent[] = [];
  const fixture: DispatchFixture = {
    home,
    work,
    out,
    simLog,
    env: fullEnv,
    runtime,
    store: runtime.store!,
    events,
    request: (overrides = {}) => ({
      action: 'run',
      prompt: 'Explain the parser',
      lane: 'analyze',
      kind: 'single-run',
      cwd: work,
      outputDir: out,
      onEvent: (event) => events.push(event),
      ...overrides,
    }),
    simLogLines: () =>
      existsSync(simLog)
        ? readFileSync(simLog, 'utf8')
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => JSON.parse(line) as SimLogLine)
        : [],
    openAnother: () => openRuntime({ home, env: fullEnv, createStore: true }),
    close: async () => {
      await runtime.close();
      await database?.drop();
      rmSync(home, { recursive: true, force: true });
      rmSync(scratch, { recursive: true, force: true });
    },
  };
  open.push(fixture);
  return fixture;
}

/** Closes every fixture created so far (call from afterEach). */
export async function closeDispatchFixtures(): Promise<void> {
  for (const fixture of open.splice(0)) await fixture.close();
}

/** Path of the fake agent fixture (see src/__fixtures__/README.md). */
export const FAKE_AGENT = fileURLToPath(new URL('../__fixtures__/fake-agent.mjs', import.meta.url));

/**
 * A connector running the fake agent in `mode` with the given output format: the sim manifest's
 * shape with `node fake-agent.mjs <mode>` as its command line and no meter.
 */
export function fakeAgentConnector(
  mode: string,
  outputFormat: ConnectorManifestInput['outputFormat'] = 'text',
  extra: Partial<ConnectorManifestInput> = {},
): ManifestConnector {
  return defineConnector({
    manifest: {
      specificationVersion: 'connector-v1',
      id: `fake-${mode}`,
      displayName: `fake agent (${mode})`,
      providerFamily: 'fake',
      invocation: {
        command: process.execPath,
        args: [FAKE_AGENT, mode],
        prompt: { mode: 'arg', args: ['{{prompt}}'], position: 'last' },
      },
      outputFormat,
      lanes: ['analyze', 'build', 'chore'],
      capabilities: [],
      pacingWindow: 'weekly',
      hasFiveHourWindow: false,
      cost: 1,
      modelProfiles: { medium: [{ model: 'fake', default: true }] },
      meter: { type: 'none' },
      probe: false,
      ...extra,
    },
    source: 'dispatch test fake agent',
  });
}
