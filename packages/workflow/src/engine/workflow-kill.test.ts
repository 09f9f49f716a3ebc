import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '../state/event-log';
import { loadRun } from '../state/load-run';
import { runPaths } from '../state/run-paths';
import type { WorkflowEvent } from '../state/workflow-event';
import { spawnWorker, waitFor } from '../test-support/worker-process';
import {
  closeWorkflowFixtures,
  createWorkflowFixture,
  type WorkflowFixture,
} from '../test-support/workflow-fixture';

afterEach(() => closeWorkflowFixtures());

const V = 'bullswarm.workflow.program.v3';

function writeProgram(fixture: WorkflowFixture, count: number, concurrency: number): string {
  const file = join(fixture.root, 'program.json');
  writeFileSync(
    file,
    JSON.stringify({
      schemaVersion: V,
      name: 'many',
      settings: { concurrency },
      steps: [
        {
          id: 'each',
          prompt: 'ITEM<{{item}}> say hello',
          forEach: { items: Array.from({ length: count }, (_, i) => i) },
        },
      ],
    }),
  );
  return file;
}

/** The item value of a verdict event. */
function itemOf(event: WorkflowEvent | undefined): number {
  return ((event as Extract<WorkflowEvent, { type: 'unit.finished' }>).unit as { item?: unknown })
    .item as number;
}

function verdicts(events: readonly WorkflowEvent[]): Map<number, WorkflowEvent[]> {
  const bySlot = new Map<number, WorkflowEvent[]>();
  for (const event of events) {
    if (event.type !== 'unit.finished' || event.slot === undefined) continue;
    bySlot.set(event.slot, [...(bySlot.get(event.slot) ?? []), event]);
  }
  return bySlot;
}

/** Sim invocations per item number (from the `ITEM<n>` in the prompt), with their start times. */
function invocations(fixture: WorkflowFixture): Map<number, number[]> {
  const byItem = new Map<number, number[]>();
  for (const line of fixture.simLogLines()) {
    const match = /ITEM<(\d+)>/.exec(line.argv.join(' '));
    if (!match) continue;
    const item = Number(match[1]);
    byItem.set(item, [...(byItem.get(item) ?? []), Date.parse(String(line.startedAt))]);
  }
  return byItem;
}

/** No item ran again after its verdict: every sim start of an item precedes its (single) verdict. */
function expectNoRunAfterVerdict(fixture: WorkflowFixture, events: readonly WorkflowEvent[]): void {
  const runs = invocations(fixture);
  for (const [slot, list] of verdicts(events)) {
    const event = list[0] as WorkflowEvent;
    const item = itemOf(event);
    for (const startedAt of runs.get(item) ?? [])
      expect(startedAt, `item ${item} (slot ${slot})`).toBeLessThanOrEqual(event.at);
  }
}

describe('crash safety', () => {
  it('kill -9 mid-fan-out, then resume completes only the rest', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }, { account: 'b' }]);
    const program = writeProgram(fixture, 24, 4);
    const first = spawnWorker(['start', program, fixture.work], fixture.env);
    const runId = (await first.runId) as string;
    expect(runId).toMatch(/^wf-/);
    const paths = runPaths(join(fixture.home, 'workflows'), runId);
    const finished = () => readEvents(paths.eventsPath).filter((e) => e.type === 'unit.finished').length;
    expect(await waitFor(() => finished() >= 8, first)).toBe(true);
    first.kill();
    await first.exited;
    const before = verdicts(readEvents(paths.eventsPath));
    expect(before.size).toBeGreaterThanOrEqual(8);
    expect(before.size).toBeLessThan(24);
    const runsBefore = invocations(fixture);

    const second = spawnWorker(['resume', runId], fixture.env);
    const outcome = await second.exited;
    expect(outcome.stdout).toContain('done 0');

    const events = readEvents(paths.eventsPath);
    const after = verdicts(events);
    expect(after.size).toBe(24);
    for (const list of after.values()) expect(list).toHaveLength(1);
    // Items verified before the kill never ran again.
    const runsAfter = invocations(fixture);
    for (const list of before.values()) {
      const item = itemOf(list[0]);
      expect(runsAfter.get(item)).toEqual(runsBefore.get(item));
    }
    expectNoRunAfterVerdict(fixture, events);
    const resumed = events.filter((e) => e.type === 'step.items');
    expect(resumed.at(-1)).toMatchObject({ count: 24, reused: before.size });
    const loaded = loadRun(join(fixture.home, 'workflows'), runId);
    expect(loaded.state.steps[0]?.items?.every((item) => item.status === 'ok')).toBe(true);
    expect(existsSync(paths.reportPath)).toBe(true);
  });

  it('kill -9 at 20 random moments of a 200-item run (echo pools): every item gets exactly one verdict', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a', connector: 'echo' }]);
    const program = writeProgram(fixture, 200, 8);
    let seed = Number(process.env.BULLSWARM_TEST_SEED ?? Date.now() % 2 ** 31);
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const startSeed = seed;
    let runId: string | undefined;
    while (runId === undefined) {
      const worker = spawnWorker(['start', program, fixture.work], fixture.env);
      runId = await worker.runId;
      await new Promise((resolve) => setTimeout(resolve, random() * 600));
      worker.kill();
      await worker.exited;
    }
    const workflowsDir = join(fixture.home, 'workflows');
    const paths = runPaths(workflowsDir, runId);
    // Kill moments are chosen by progress, not by wall time, so they cut through the run however
    // fast this machine is: 19 random verdict counts in 1..190, in order, and after reaching each
    // one a random extra delay of up to 40 ms (the kill then lands mid-item, mid-write or between).
    const targets = Array.from({ length: 19 }, () => 1 + Math.floor(random() * 190)).sort((a, b) => a - b);
    const progress: number[] = [];
    for (let kill = 1; kill < 20; kill++) {
      const worker = spawnWorker(['resume', runId], fixture.env);
      // One kill in four lands while the process starts up; the rest once the run has reached its target.
      // (At the latest when it reports its run id: a start-up kill must not let the run go on.)
      if (kill % 4 === 0)
        await Promise.race([new Promise((resolve) => setTimeout(resolve, random() * 400)), worker.runId]);
      else {
        await worker.runId;
        const target = targets[kill - 1] as number;
        let exited = false;
        void worker.exited.then(() => {
          exited = true;
        });
        while (!exited && verdicts(readEvents(paths.eventsPath)).size < target) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await new Promise((resolve) => setTimeout(resolve, random() * 40));
      }
      worker.kill();
      const exit = await worker.exited;
      // Every moment leaves a readable run: state.json parses and replays.
      expect(
        () => loadRun(workflowsDir, runId as string),
        `seed ${startSeed}, kill ${kill}: ${exit.stderr}`,
      ).not.toThrow();
      progress.push(verdicts(readEvents(paths.eventsPath)).size);
    }
    // The kills cut through the run: verdicts accumulated across them, and work was left for the end.
    expect(progress.at(-1), `seed ${startSeed}: ${progress.join(',')}`).toBeGreaterThan(0);
    expect(progress.at(-1), `seed ${startSeed}: ${progress.join(',')}`).toBeLessThan(200);
    expect(new Set(progress).size, `seed ${startSeed}: ${progress.join(',')}`).toBeGreaterThan(5);
    const last = spawnWorker(['resume', runId], fixture.env);
    const outcome = await last.exited;
    expect(outcome.stdout, `seed ${startSeed}: ${outcome.stderr}`).toContain('done 0');

    const events = readEvents(paths.eventsPath);
    const bySlot = verdicts(events);
    expect(bySlot.size, `seed ${startSeed}`).toBe(200);
    for (const [slot, list] of bySlot) expect(list, `seed ${startSeed}, slot ${slot}`).toHaveLength(1);
    const items = new Set([...bySlot.values()].map((list) => itemOf(list[0])));
    expect(items.size).toBe(200);
    expectNoRunAfterVerdict(fixture, events);
    const state = loadRun(workflowsDir, runId).state;
    expect(state.steps[0]?.items?.filter((item) => item.status === 'ok')).toHaveLength(200);
    expect(state.status).toBe('finished');
    console.log(`kill test seed ${startSeed}: verdicts after each kill ${progress.join(',')}`);
  }, 600_000);
});
