import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EmbeddedBullswarmStore, openStore } from '@bullswarm/store';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkflowError } from '../errors/workflow-error';
import { WORKER_BUNDLE } from '../test-support/worker-process';
import { claimRun, ensureWorkflowTables } from './run-owner';

const RACER = fileURLToPath(new URL('../test-support/claim-racer.mjs', import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function tempHome(): { home: string; store: EmbeddedBullswarmStore } {
  const home = mkdtempSync(join(tmpdir(), 'bullswarm-claim-'));
  const store = openStore({ dbPath: join(home, 'bullswarm.db') });
  cleanups.push(() => {
    store.close();
    rmSync(home, { recursive: true, force: true });
  });
  return { home, store };
}

/** A pid that belonged to a process that has exited (and was reaped). */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (pid === undefined) throw new Error('could not start a short-lived process');
  return pid;
}

function plantOwner(store: EmbeddedBullswarmStore, runId: string, pid: number, host: string): void {
  ensureWorkflowTables(store);
  store.transaction(() =>
    store.database
      .prepare(
        'INSERT OR REPLACE INTO workflow_owners (run_id, pid, pid_start, host, token, claimed_at) VALUES (?, ?, NULL, ?, ?, ?)',
      )
      .run(runId, pid, host, 'planted', Date.now()),
  );
}

function owners(store: EmbeddedBullswarmStore, runId: string): { pid: number }[] {
  return store.database.prepare('SELECT pid FROM workflow_owners WHERE run_id = ?').all(runId) as {
    pid: number;
  }[];
}

describe('claimRun', () => {
  it('one claim per run: a second claim (even by the same process) is run-busy naming the driver', () => {
    const { store } = tempHome();
    const claim = claimRun(store, 'wf-aaaa1111');
    expect(claim.owner.pid).toBe(process.pid);
    let thrown: unknown;
    try {
      claimRun(store, 'wf-aaaa1111');
    } catch (error) {
      thrown = error;
    }
    expect(WorkflowError.isInstance(thrown) && thrown.kind).toBe('run-busy');
    expect((thrown as Error).message).toBe(
      `run wf-aaaa1111 is being driven by process ${process.pid}; watch it with \`bullswarm workflow watch wf-aaaa1111\``,
    );
    // Another run is free.
    claimRun(store, 'wf-bbbb2222').release();
    claim.release();
    claim.release();
    expect(owners(store, 'wf-aaaa1111')).toEqual([]);
    claimRun(store, 'wf-aaaa1111').release();
  });

  it('takes over the claim of a dead process; a process of another host counts as alive', async () => {
    const { store } = tempHome();
    const { hostname } = await import('node:os');
    plantOwner(store, 'wf-dead0001', deadPid(), hostname());
    const claim = claimRun(store, 'wf-dead0001');
    expect(owners(store, 'wf-dead0001')).toEqual([{ pid: process.pid }]);
    claim.release();
    plantOwner(store, 'wf-far00001', 4242, 'elsewhere.example');
    expect(() => claimRun(store, 'wf-far00001')).toThrow(
      'run wf-far00001 is being driven by process 4242 on elsewhere.example',
    );
  });

  it('200 rounds of 4 processes racing for one run (half over a dead owner): exactly one owner each', async () => {
    const { home, store } = tempHome();
    ensureWorkflowTables(store);
    const racers: ChildProcess[] = [];
    type Waiter = { resolve: (message: Record<string, unknown>) => void; reject: (error: Error) => void };
    const inbox = new Map<ChildProcess, Waiter[]>();
    const next = (racer: ChildProcess) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        inbox.get(racer)?.push({ resolve, reject });
      });
    for (let i = 0; i < 4; i++) {
      const racer = fork(RACER, [WORKER_BUNDLE], {
        env: { ...process.env, BULLSWARM_HOME: home },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      inbox.set(racer, []);
      racer.on('message', (message) =>
        inbox
          .get(racer)
          ?.shift()
          ?.resolve(message as Record<string, unknown>),
      );
      racer.on('exit', (code) => {
        for (const waiter of inbox.get(racer)?.splice(0) ?? [])
          waiter.reject(new Error(`racer ${racer.pid} exited (${code})`));
      });
      racers.push(racer);
    }
    cleanups.push(() => {
      for (const racer of racers) racer.kill('SIGKILL');
    });
    await Promise.all(racers.map((racer) => next(racer)));
    const dead = deadPid();
    const { hostname } = await import('node:os');
    for (let round = 0; round < 200; round++) {
      const runId = `wf-race${String(round).padStart(4, '0')}`;
      if (round % 2 === 1) plantOwner(store, runId, dead, hostname());
      const at = Date.now() + 15;
      const answers = await Promise.all(
        racers.map((racer) => {
          const answer = next(racer);
          racer.send({ type: 'claim', runId, at });
          return answer;
        }),
      );
      const winners = answers.filter((answer) => answer.won === true);
      expect(winners, `round ${round}`).toHaveLength(1);
      const winner = winners[0]?.pid as number;
      expect(owners(store, runId)).toEqual([{ pid: winner }]);
      for (const answer of answers.filter((a) => a.won !== true)) {
        expect(answer.kind).toBe('run-busy');
        expect(answer.message).toContain(`is being driven by process ${winner};`);
      }
      const holder = racers.find((racer) => racer.pid === winner) as ChildProcess;
      const released = next(holder);
      holder.send({ type: 'release', runId });
      await released;
      expect(owners(store, runId)).toEqual([]);
    }
    for (const racer of racers) racer.send({ type: 'exit' });
  }, 180_000);
});
