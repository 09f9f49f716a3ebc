import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupHasRunningMembers, isPidAlive, signalGroup } from '@bullswarm/connectors/internal';
import type { InflightEntry } from '@bullswarm/store';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDispatchFixtures, createDispatchFixture } from '../test-support/dispatch-fixture';
import { startDispatchWorker } from '../test-support/worker';
import { dispatchTask } from './dispatch-task';

const groups: number[] = [];
afterEach(async () => {
  for (const pgid of groups.splice(0)) signalGroup(pgid, 'SIGKILL');
  await closeDispatchFixtures();
});

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

describe('the in-flight ledger', () => {
  it('shows a running attempt, with its worker pid, to another bullswarm process; released after', async () => {
    const f = await createDispatchFixture([
      {
        account: 'a',
        windows: weekly(10),
        scenario: { default: { scenario: 'slow', ms: 1_500, tickMs: 100 } },
      },
    ]);
    const other = await f.openAnother();
    let seen: Promise<InflightEntry[]> = Promise.resolve([]);
    let workerPid: number | undefined;
    const request = f.request({ action: 'step-7', lane: 'build' });
    const result = await dispatchTask(f.runtime, {
      ...request,
      onEvent: (event) => {
        if (event.type === 'attempt.started') {
          workerPid = event.pid;
          // Read while the attempt runs (on SQLite the statement runs inside this call; on
          // Postgres the worker pid's write may land just after the event: read until it is there,
          // at most 1 s, well inside the attempt's 1.5 s).
          seen = (async () => {
            let rows = await other.store!.ledger.list();
            for (let i = 0; i < 20 && rows[0]?.workerPid === undefined; i++) {
              await new Promise((resolve) => setTimeout(resolve, 50));
              rows = await other.store!.ledger.list();
            }
            return rows;
          })();
        }
      },
    });
    expect(result.ok).toBe(true);
    const during = await seen;
    expect(during).toHaveLength(1);
    expect(during[0]).toMatchObject({
      poolId: 'sim:a',
      action: 'step-7',
      lane: 'build',
      tier: 'high',
      pid: process.pid,
      workerPid,
    });
    expect(during[0]?.expectedMinutes).toBeGreaterThan(0);
    expect(await other.store!.ledger.list()).toEqual([]);
    await other.close();
  });

  it('two dispatches picking at the same moment (two runtimes, one home) see each other: read, route and record is one transaction', async () => {
    const slow = { default: { scenario: 'slow', ms: 300, tickMs: 100 } };
    // sim:a surplus 30, sim:b 29: one in-flight record (flat charge 3) makes sim:a the less behind.
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(20), scenario: slow },
      { account: 'b', windows: weekly(21), scenario: slow },
    ]);
    const other = await f.openAnother();
    const [one, two] = await Promise.all([
      dispatchTask(f.runtime, f.request({ action: 'one' })),
      dispatchTask(other, f.request({ action: 'two' })),
    ]);
    await other.close();
    expect([one.poolId, two.poolId].sort()).toEqual(['sim:a', 'sim:b']);
    const later = one.poolId === 'sim:b' ? one : two;
    expect(later.decision.candidates.find((c) => c.poolId === 'sim:a')?.inflight).toBe(1);
    expect(await f.store.ledger.list()).toEqual([]);
  });

  it('an entry of a bullswarm process killed with SIGKILL mid-attempt is reaped by the next list', async () => {
    const f = await createDispatchFixture([
      {
        account: 'a',
        windows: weekly(10),
        scenario: { default: { scenario: 'slow', ms: 60_000, tickMs: 500 } },
      },
    ]);
    const worker = startDispatchWorker(f.home, f.env, f.request());
    const started = await worker.waitFor('attempt.started');
    const workerPid = started.pid as number;
    groups.push(workerPid);
    const store = f.store;
    // The worker pid is written beside the event (on Postgres a round trip that may land just
    // after it): read until it is there, at most 10 s.
    let listed = await store.ledger.list();
    for (let i = 0; i < 100 && listed[0]?.workerPid === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      listed = await store.ledger.list();
    }
    expect(listed).toEqual([expect.objectContaining({ poolId: 'sim:a', pid: worker.child.pid, workerPid })]);

    worker.child.kill('SIGKILL');
    const end = await worker.exited;
    expect(end.signal).toBe('SIGKILL');
    // Nothing released it; the dead bullswarm pid is what makes the next list drop it.
    expect(await store.ledger.list()).toEqual([]);
  });

  it('kill -9 of bullswarm mid-attempt: the next list reaps the entry and ends the orphaned worker and its grandchild', async () => {
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10), scenario: { default: { scenario: 'stall', child: true } } },
    ]);
    const worker = startDispatchWorker(f.home, f.env, f.request());
    const started = await worker.waitFor('attempt.started');
    const workerPid = started.pid as number;
    groups.push(workerPid);
    const store = f.store;
    // SQLite: the entry, with its worker, is recorded before attempt.started is emitted. Postgres:
    // the worker's pid lands one round trip later (attempt.started is not held back for it).
    for (let i = 0; i < 200 && store.engine === 'postgres'; i += 1) {
      if ((await store.ledger.list())[0]?.workerPid !== undefined) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await store.ledger.list()).toEqual([
      expect.objectContaining({ pid: worker.child.pid, workerPid }),
    ]);
    for (let i = 0; i < 500 && grandchildPid(f.out) === undefined; i += 1) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const grandchild = grandchildPid(f.out) as number;
    expect(isPidAlive(grandchild)).toBe(true);

    worker.child.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');
    // SIGKILL could not be caught: the agent outlived its bullswarm process, re-parented.
    expect(isPidAlive(workerPid)).toBe(true);
    expect(groupHasRunningMembers(workerPid)).toBe(true);

    expect(await store.ledger.list()).toEqual([]);
    // Not our children: wait for the group to empty (bounded by the test timeout).
    while (groupHasRunningMembers(workerPid)) await new Promise((r) => setTimeout(r, 20));
    expect(isPidAlive(workerPid)).toBe(false);
    expect(isPidAlive(grandchild)).toBe(false);
    expect(f.simLogLines()[0]).toMatchObject({ pid: workerPid, signal: 'SIGTERM' });
  });

  it('SIGTERM of bullswarm ends the worker group, releases the entry, then re-raises', async () => {
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10), scenario: { default: { scenario: 'stall', child: true } } },
    ]);
    const worker = startDispatchWorker(f.home, f.env, f.request());
    const started = await worker.waitFor('attempt.started');
    const workerPid = started.pid as number;
    groups.push(workerPid);
    // Let the sim start its grandchild.
    for (let i = 0; i < 200 && grandchildPid(f.out) === undefined; i += 1) {
      await new Promise((r) => setTimeout(r, 10));
    }
    worker.child.kill('SIGTERM');
    const end = await worker.exited;
    expect(end.signal).toBe('SIGTERM');
    expect(groupHasRunningMembers(workerPid)).toBe(false);
    const simLine = f.simLogLines()[0];
    expect(simLine).toMatchObject({ pid: workerPid, signal: 'SIGTERM' });
    if (simLine?.childPid !== undefined) expect(isPidAlive(simLine.childPid)).toBe(false);
    expect(await f.store.ledger.list()).toEqual([]);
  });

  it('a program that listens to SIGTERM itself keeps running; the interrupted task ends canceled, not retried', async () => {
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10), scenario: { default: 'stall' } },
      { account: 'b', windows: weekly(30) },
    ]);
    const worker = startDispatchWorker(f.home, f.env, f.request(), { ownSignalListener: true });
    const started = await worker.waitFor('attempt.started');
    groups.push(started.pid as number);
    // Once the sim has written its partial output, it has its own signal handlers.
    for (let i = 0; i < 300 && !hasOutput(f.out); i += 1) await new Promise((r) => setTimeout(r, 10));
    worker.child.kill('SIGTERM');
    const { result } = (await worker.waitFor('result')) as { result: Record<string, unknown> };
    expect(result).toMatchObject({
      ok: false,
      kind: 'canceled',
      why: 'interrupted by SIGTERM',
      poolId: 'sim:a',
    });
    expect(result.attempts).toHaveLength(1);
    const end = await worker.exited;
    expect(end.code).toBe(0);
    expect(groupHasRunningMembers(started.pid as number)).toBe(false);
    expect(f.simLogLines().map((line) => [line.pool, line.signal])).toEqual([['sim:a', 'SIGTERM']]);
    expect(existsSync(join(f.out, 'out-run-attempt-2'))).toBe(false);
  });

  it('when the caller cannot record the start (its listener throws), the agent is ended and the error surfaces', async () => {
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10), scenario: { default: 'stall' } },
    ]);
    let pid: number | undefined;
    const error = await dispatchTask(
      f.runtime,
      f.request({
        onEvent: (event) => {
          if (event.type === 'attempt.started') {
            pid = event.pid;
            throw new Error('listener failed');
          }
        },
      }),
      { killGraceMs: 500 },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('listener failed');
    expect(pid).toBeGreaterThan(0);
    expect(groupHasRunningMembers(pid!)).toBe(false);
    expect(await f.store.ledger.list()).toEqual([]);
  });
});

function hasOutput(out: string): boolean {
  try {
    return readFileSync(join(out, 'out-run-attempt-1'), 'utf8').length > 0;
  } catch {
    return false;
  }
}

/** The stalled sim's grandchild, once it has reported it on stderr. */
function grandchildPid(out: string): number | undefined {
  try {
    const match = /grandchild pid (\d+)/.exec(readFileSync(join(out, 'out-run-attempt-1.stderr'), 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
