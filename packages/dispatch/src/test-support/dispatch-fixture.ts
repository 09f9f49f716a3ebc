import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConnectorManifestInput, defineConnector, type ManifestConnector } from '@bullswarm/connectors';
import { nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import type { DispatchEvent, DispatchRequest } from '../dispatch/dispatch-types';
import { type BullswarmRuntime, openRuntime } from '../runtime/open-runtime';

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
  /** Every event of every `request()` made through this fixture. */
  readonly events: DispatchEvent[];
  /** A request over this fixture (action `run`, lane analyze, single run) with overrides. */
  request(overrides?: Partial<DispatchRequest>): DispatchRequest;
  /** The sim log so far. */
  simLogLines(): SimLogLine[];
  /** Another runtime on the same home (what a second bullswarm process sees). */
  openAnother(): Promise<BullswarmRuntime>;
  close(): void;
}

const open: DispatchFixture[] = [];

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
  const fullEnv = {
    ...nowEnv(TEST_NOW),
    BULLSWARM_SIM_LOG: simLog,
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
    close: () => {
      runtime.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(scratch, { recursive: true, force: true });
    },
  };
  open.push(fixture);
  return fixture;
}

/** Closes every fixture created so far (call from afterEach). */
export function closeDispatchFixtures(): void {
  for (const fixture of open.splice(0)) fixture.close();
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
