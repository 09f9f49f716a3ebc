import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import type { ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, startBullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

/**
 * Every process whose environment names `home` as its BULLSWARM_HOME (bullswarm itself, every agent
 * and probe it started, and their children): what an interrupt must leave none of.
 */
function processesOfHome(home: string): number[] {
  const needle = `BULLSWARM_HOME=${home}\0`;
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(needle)) pids.push(Number(name));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

afterEach(() => {
  // A failing test must not leave its agents behind.
  for (const home of homes.splice(0)) {
    for (const pid of processesOfHome(home)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  dirs.cleanup();
});
const homes: string[] = [];

function home(pools: TestPool[]): string {
  const dir = dirs.make('bullswarm-cli-interrupt-');
  writeTestHome(dir, { now: NOW, pools });
  homes.push(dir);
  return dir;
}

/** Polls until `done` (bounded: 300 × 100 ms); never a timing assertion. */
async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

/** The number of processes of `home` other than bullswarm (`pid`): its agents and their children. */
const agentsOf = (dir: string, pid: number | undefined) => processesOfHome(dir).filter((p) => p !== pid);

/** Sends `signal` and waits at most 5 s for the process to end (the bound of issue 10, item 2). */
async function interrupt(run: ResultPromise, signal: NodeJS.Signals) {
  run.kill(signal);
  const ended = await Promise.race([
    run,
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 5_000)),
  ]);
  if (ended === 'still running') run.kill('SIGKILL');
  expect(ended).not.toBe('still running');
  return ended as Awaited<ResultPromise>;
}

async function nothingInFlight(dir: string): Promise<void> {
  expect((await bullswarm(['assignments'], { home: dir })).stdout).toBe('nothing in flight\n');
}

describe('SIGINT and SIGTERM end any run within 5 s, its agents ended and its ledger entry released', () => {
  it('run, SIGINT while the agent (and its grandchild) hangs', async () => {
    const dir = home([
      { account: 'a', windows: weekly(10), scenario: { default: { scenario: 'stall', child: true } } },
    ]);
    const run = startBullswarm(['run', '--lane', 'analyze', '--json', 'Explain the parser'], {
      home: dir,
      env: nowEnv(NOW),
      cwd: dir,
    });
    // The agent and its grandchild are running.
    await until(() => agentsOf(dir, run.pid).length >= 2, 'the agent and its grandchild started');
    const ended = await interrupt(run, 'SIGINT');
    expect(JSON.parse(String(ended.stdout))).toMatchObject({ ok: false, kind: 'canceled' });
    expect(processesOfHome(dir)).toEqual([]);
    await nothingInFlight(dir);
  });

  it('run, SIGTERM while a free model’s liveness probe hangs', async () => {
    // The sim's low tier is a free model (`sim/lite:free`): a chore is probed first, and the probe hangs.
    const dir = home([{ account: 'f', windows: weekly(40), scenario: { default: { scenario: 'stall' } } }]);
    const run = startBullswarm(['run', '--lane', 'chore', '--json', 'Tidy the imports'], {
      home: dir,
      env: nowEnv(NOW),
      cwd: dir,
    });
    await until(() => agentsOf(dir, run.pid).length >= 1, 'the probe started');
    const ended = await interrupt(run, 'SIGTERM');
    expect(ended.exitCode).toBe(1);
    expect(JSON.parse(String(ended.stdout))).toMatchObject({ ok: false, kind: 'canceled', attempts: [] });
    expect(processesOfHome(dir)).toEqual([]);
    await nothingInFlight(dir);
  });

  it('workflow goal, SIGTERM while a step’s agent hangs: the step is left for resume', async () => {
    const dir = home([
      { account: 'a', windows: weekly(10), scenario: { default: { scenario: 'stall', child: true } } },
    ]);
    const program = join(dir, 'program.json');
    writeFileSync(
      program,
      JSON.stringify({
        schemaVersion: 'bullswarm.workflow.program.v3',
        steps: [{ id: 'explain', lane: 'analyze', prompt: 'Explain the parser' }],
      }),
    );
    const run = startBullswarm(['workflow', 'goal', program], { home: dir, env: nowEnv(NOW), cwd: dir });
    await until(() => agentsOf(dir, run.pid).length >= 2, 'the step’s agent and its grandchild started');
    const ended = await interrupt(run, 'SIGTERM');
    expect(ended.exitCode).toBe(1);
    expect(processesOfHome(dir)).toEqual([]);
    await nothingInFlight(dir);
  });
});

describe('a pinned pool that cannot run comes back at once', () => {
  it('run --worker-pool on a free pool whose probe gets a 404: the reason, one probe, no loop', async () => {
    const dir = home([
      { account: 'f', windows: weekly(40), scenario: { default: 'probe-404' } },
      { account: 'b', windows: weekly(10) },
    ]);
    const log = join(dir, 'sim.log');
    const env = { ...nowEnv(NOW), BULLSWARM_SIM_LOG: log };
    const args = ['run', '--lane', 'chore', '--worker-pool', 'sim:f', '--json', 'Tidy the imports'];
    const first = await bullswarm(args, { home: dir, env, cwd: dir });
    expect(first.exitCode).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({
      ok: false,
      kind: 'unavailable',
      why: 'pinned to sim:f (--worker-pool): probe: 404',
      attempts: [],
    });
    // Again: the cached failed probe comes back the same way, without a second probe process.
    const again = await bullswarm(args, { home: dir, env, cwd: dir });
    expect(JSON.parse(again.stdout).why).toBe('pinned to sim:f (--worker-pool): probe: 404');
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
    await nothingInFlight(dir);
  });
});
