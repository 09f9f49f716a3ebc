import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_FAULT_VARIABLE } from '@bullswarm/connectors/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { resumeWorkflow } from '../engine/workflow-api';
import type { WorkflowError } from '../errors/workflow-error';
import { closeWorkflowFixtures, createWorkflowFixture } from '../test-support/workflow-fixture';
import { listRuns, loadRun } from './load-run';
import { runPaths } from './run-paths';

afterEach(() => {
  delete process.env[WRITE_FAULT_VARIABLE];
  closeWorkflowFixtures();
});

const PROGRAM = {
  schemaVersion: 'bullswarm.workflow.program.v3',
  settings: { concurrency: 2 },
  steps: [
    {
      id: 'each',
      prompt: 'ITEM<{{item}}> [sim:slow,ms=100,tickMs=10]',
      forEach: { items: [0, 1, 2, 3, 4, 5] },
    },
    { id: 'after', prompt: 'sum up', dependsOn: ['each'] },
  ],
};

describe('a run whose state.json is gone', () => {
  it('is rebuilt from program.json and events.jsonl: the same verdicts, counts and options', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }]);
    const result = await fixture.run(PROGRAM, { concurrency: 3 });
    const workflows = join(fixture.home, 'workflows');
    const before = loadRun(workflows, result.runId).state;
    rmSync(runPaths(workflows, result.runId).statePath);
    const loaded = loadRun(workflows, result.runId);
    expect(loaded.rebuilt).toBe(true);
    const { state } = loaded;
    expect(state.status).toBe('finished');
    expect(state.options).toEqual({ concurrency: 3 });
    expect(state.lastEventSeq).toBe(before.lastEventSeq);
    expect(state.steps.map((step) => [step.id, step.status])).toEqual(
      before.steps.map((step) => [step.id, step.status]),
    );
    expect(state.steps[0]?.items?.map((item) => [item.slot, item.status, item.fingerprint])).toEqual(
      before.steps[0]?.items?.map((item) => [item.slot, item.status, item.fingerprint]),
    );
    expect(listRuns(workflows).find((row) => row.runId === result.runId)).toMatchObject({ outcome: 'ok' });
  });

  it('of a run stopped half-way: resume runs only what had no verdict', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }]);
    // The run stops on a (test-injected) full disk after a few verdicts.
    process.env[WRITE_FAULT_VARIABLE] = 'ENOSPC:events.jsonl:9';
    const error = (await fixture.run(PROGRAM).catch((e: unknown) => e)) as WorkflowError;
    delete process.env[WRITE_FAULT_VARIABLE];
    expect(error.kind).toBe('write-failed');
    const runId = error.runId as string;
    const workflows = join(fixture.home, 'workflows');
    const verified = fixture
      .events(runId)
      .filter((event) => event.type === 'unit.finished')
      .map((event) => (event as { slot?: number }).slot);
    expect(verified.length).toBeGreaterThan(0);
    rmSync(runPaths(workflows, runId).statePath);
    const startsBefore = fixture.simLogLines().length;

    const resumed = await resumeWorkflow({ runtime: fixture.runtime, runId });
    expect(resumed.exitCode).toBe(0);
    expect(resumed.state.steps.map((step) => step.status)).toEqual(['ok', 'ok']);
    const rerun = fixture
      .simLogLines()
      .slice(startsBefore)
      .map((line) => /ITEM<(\d+)>/.exec(line.argv.join(' '))?.[1])
      .filter((item) => item !== undefined)
      .map(Number);
    for (const slot of verified) expect(rerun).not.toContain(slot);
    expect(loadRun(workflows, runId).rebuilt).toBe(false); // the drive wrote state.json again
  }, 60_000);

  it('without program.json either: says exactly what is missing and what to do', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }]);
    const result = await fixture.run({
      schemaVersion: 'bullswarm.workflow.program.v3',
      steps: [{ id: 'a', prompt: 'x' }],
    });
    const workflows = join(fixture.home, 'workflows');
    const paths = runPaths(workflows, result.runId);
    rmSync(paths.statePath);
    rmSync(paths.programPath);
    const error = (() => {
      try {
        loadRun(workflows, result.runId);
      } catch (caught) {
        return caught as WorkflowError;
      }
      throw new Error('expected an error');
    })();
    expect(error.kind).toBe('run-state-invalid');
    expect(error.message).toBe(
      `run ${result.runId} cannot be read: ${paths.statePath} and ${paths.programPath} are both missing ` +
        `(its ${fixture.events(result.runId).length} events in ${paths.eventsPath} do not hold the program), so it cannot be rebuilt or resumed; ` +
        `start the program again with \`bullswarm workflow goal <program>\` in ${fixture.work}, and remove ${paths.runDir} when you no longer need its files`,
    );
    expect(listRuns(workflows)[0]?.problem).toBe(error.message);
  });
});
