import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPidAlive } from '@bullswarm/connectors/internal';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, startBullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
const leftovers: number[] = [];
afterEach(() => {
  // Process groups a test left running on purpose (the worker of a killed bullswarm).
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  dirs.cleanup();
});

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

interface InflightJson {
  readonly poolId: string;
  readonly pid: number;
  readonly workerPid: number | null;
}

/** Polls `bullswarm assignments --json` until `done` holds (bounded; never a timing assertion). */
async function waitForInflight(
  home: string,
  done: (rows: InflightJson[]) => boolean,
  attempts = 200,
): Promise<InflightJson[]> {
  for (let i = 0; i < attempts; i++) {
    const result = await bullswarm(['assignments', '--json'], { home });
    if (result.exitCode === 0) {
      const rows = (JSON.parse(result.stdout) as { inflight: InflightJson[] }).inflight;
      if (done(rows)) return rows;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the in-flight ledger never reached the expected state');
}

describe('bullswarm run: processes', () => {
  it('a stall is stopped with its whole tree, its partial output kept in attempt 1, the retry on another pool', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        {
          connector: 'sim',
          account: 'a',
          windows: weekly(10),
          scenario: { default: { scenario: 'stall', child: true } },
        },
        { connector: 'sim', account: 'b', windows: weekly(30) },
      ],
    });
    const simLog = join(home, 'sim.log');
    const result = await bullswarm(['run', '--lane', 'analyze', 'Explain the parser'], {
      home,
      env: { ...nowEnv(NOW), BULLSWARM_SIM_LOG: simLog, BULLSWARM_WORKER_SILENCE_SEC: '2' },
      cwd: home,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('sim: done: Explain the parser\n');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('→ [sim:a] most-behind capable pool (surplus 40)');
    expect(lines[1]).toBe(
      '→ [sim:b] fallback from sim:a after stall 2s · most-behind capable pool (surplus 20)',
    );

    const runDir = join(home, 'runs', readdirSync(join(home, 'runs'))[0]!);
    const partial = readFileSync(join(runDir, 'out-run-attempt-1'), 'utf8');
    expect(partial.length).toBeGreaterThan(0);
    expect(partial).not.toContain('sim: done');
    expect(readFileSync(join(runDir, 'out-run-attempt-2'), 'utf8')).toContain('sim: done');

    // No process of the stalled tree survives: the sim and the grandchild it spawned.
    const grandchild = Number(
      /grandchild pid (\d+)/.exec(readFileSync(join(runDir, 'out-run-attempt-1.stderr'), 'utf8'))?.[1],
    );
    expect(grandchild).toBeGreaterThan(0);
    const stalledSim = readFileSync(simLog, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { pool: string; pid: number; childPid?: number })
      .find((line) => line.pool === 'sim:a');
    expect(stalledSim?.childPid).toBe(grandchild);
    for (const pid of [stalledSim!.pid, grandchild]) expect(isPidAlive(pid)).toBe(false);
    expect((await bullswarm(['assignments'], { home })).stdout).toBe('nothing in flight\n');
  });

  it('kill -9 of a bullswarm run mid-run: the next assignments reaps its entry and ends its orphaned agent', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        {
          connector: 'sim',
          account: 'a',
          windows: weekly(10),
          scenario: { default: { scenario: 'slow', ms: 120_000 } },
        },
      ],
    });
    const run = startBullswarm(['run', '--lane', 'analyze', 'Explain the parser'], {
      home,
      env: nowEnv(NOW),
      cwd: home,
    });
    const rows = await waitForInflight(home, (r) => r.length === 1 && r[0]!.workerPid !== null);
    expect(rows[0]).toMatchObject({ poolId: 'sim:a', pid: run.pid });
    leftovers.push(rows[0]!.workerPid!);

    const workerPid = rows[0]!.workerPid!;
    run.kill('SIGKILL');
    await run;
    expect(isPidAlive(run.pid!)).toBe(false);
    // SIGKILL cannot be caught: the agent outlives its dispatcher until someone reaps the entry.
    expect(isPidAlive(workerPid)).toBe(true);
    const after = await bullswarm(['assignments'], { home });
    expect(after.exitCode).toBe(0);
    expect(after.stdout).toBe('nothing in flight\n');
    const json = JSON.parse((await bullswarm(['assignments', '--json'], { home })).stdout);
    expect(json.inflight).toEqual([]);
    // The reaping `assignments` ended the orphaned agent (SIGTERM; the sim exits on it).
    for (let i = 0; i < 400 && isPidAlive(workerPid); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(isPidAlive(workerPid)).toBe(false);
  });

  it("two runs at once see each other's in-flight load: the second goes to the other pool, preferred over busier", async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        {
          connector: 'sim',
          account: 'a',
          windows: weekly(20),
          scenario: { default: { scenario: 'slow', ms: 120_000 } },
        },
        { connector: 'sim', account: 'b', windows: weekly(21) },
      ],
    });
    mkdirSync(join(home, 'work'));
    const first = startBullswarm(['run', '--lane', 'analyze', 'the first task'], {
      home,
      env: nowEnv(NOW),
      cwd: join(home, 'work'),
    });
    const rows = await waitForInflight(home, (r) => r.length === 1 && r[0]!.workerPid !== null);
    expect(rows[0]).toMatchObject({ poolId: 'sim:a', pid: first.pid });

    const second = await bullswarm(['run', '--lane', 'analyze', '--json', 'the second task'], {
      home,
      env: nowEnv(NOW),
      cwd: join(home, 'work'),
    });
    expect(second.exitCode).toBe(0);
    const json = JSON.parse(second.stdout);
    expect(json.poolId).toBe('sim:b');
    expect(json.reason).toBe(
      'most-behind capable pool (surplus 29) · preferred over busier: sim:a (1 in flight)',
    );
    const rowA = json.candidates.find((c: { poolId: string }) => c.poolId === 'sim:a');
    expect(rowA).toMatchObject({ inflight: 1, inflightCharge: 3 });
    expect(rowA.effectiveSurplus).toBeCloseTo(27, 9);

    // The first run is still in flight on sim:a; SIGTERM cancels it cleanly.
    expect((await bullswarm(['assignments'], { home })).stdout).toMatch(/^sim:a {2}run {2}/);
    first.kill('SIGTERM');
    const ended = await first; // reject: false — resolves with the exit code
    expect(ended.exitCode).toBe(1);
    expect(String(ended.stderr)).toMatch(/^FAILED \[sim:a\] canceled: /m);
    expect((await bullswarm(['assignments'], { home })).stdout).toBe('nothing in flight\n');
    expect(existsSync(join(home, 'runs'))).toBe(true);
  });
});
