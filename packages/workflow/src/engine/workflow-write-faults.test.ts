import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_FAULT_VARIABLE } from '@bullswarm/connectors/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkflowError } from '../errors/workflow-error';
import { loadRun } from '../state/load-run';
import { runPaths } from '../state/run-paths';
import { closeWorkflowFixtures, createWorkflowFixture } from '../test-support/workflow-fixture';
import { resumeWorkflow } from './workflow-api';

// The test-only write-fault injector (packages/connectors/src/files/write-fault.ts) stands in for a
// full disk here; apps/cli/test/disk-faults.test.ts makes a real full and read-only file system.
afterEach(async () => {
  delete process.env[WRITE_FAULT_VARIABLE];
  await closeWorkflowFixtures();
});

const PROGRAM = {
  schemaVersion: 'bullswarm.workflow.program.v3',
  settings: { concurrency: 2 },
  steps: [
    {
      id: 'each',
      prompt: 'ITEM<{{item}}> [sim:slow,ms=150,tickMs=10]',
      forEach: { items: [0, 1, 2, 3, 4, 5] },
    },
  ],
};

async function runUntilFault(fault: string) {
  const fixture = await createWorkflowFixture([{ account: 'a' }]);
  process.env[WRITE_FAULT_VARIABLE] = fault;
  const error = (await fixture.run(PROGRAM).then(
    () => undefined,
    (e: unknown) => e,
  )) as WorkflowError;
  delete process.env[WRITE_FAULT_VARIABLE];
  expect(WorkflowError.isInstance(error), String(error)).toBe(true);
  expect(error.kind).toBe('write-failed');
  expect(error.fault).toBe('failure');
  const runId = error.runId as string;
  const paths = runPaths(join(fixture.home, 'workflows'), runId);
  return { fixture, error, runId, paths };
}

/** The items whose agent started, per item, from the sim log. */
function starts(lines: readonly { argv: readonly string[] }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const item = /ITEM<(\d+)>/.exec(line.argv.join(' '))?.[1];
    if (item !== undefined) counts.set(item, (counts.get(item) ?? 0) + 1);
  }
  return counts;
}

describe('a full disk during a workflow', () => {
  it.each([
    ['the event log', 'events.jsonl', 'ENOSPC:events.jsonl:8'],
    ["an attempt's output", 'out-each.2-attempt-1', 'ENOSPC:out-each.2-attempt-1:1'],
    ['state.json', 'state.json', 'ENOSPC:state.json:3'],
  ])(
    'at %s: the run stops with an error naming the file (no crash), keeps what was written, leaves no temp file; resume finishes it',
    async (_, file, fault) => {
      const { fixture, error, runId, paths } = await runUntilFault(fault);
      expect(error.filePath?.endsWith(file)).toBe(true);
      expect(error.message).toContain(`cannot write ${error.filePath}: no space left on its disk (ENOSPC)`);
      expect(error.message).toContain(`continue it with \`bullswarm workflow resume ${runId}\``);
      // Every line of the log is whole, numbered without a gap.
      const seqs = readFileSync(paths.eventsPath, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => (JSON.parse(line) as { seq: number }).seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      expect(readdirSync(paths.runDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      const firstStarts = starts(fixture.simLogLines());
      // What the stopped run kept: the items verified before the fault; state.json claims no
      // event the log does not have.
      const kept = loadRun(join(fixture.home, 'workflows'), runId).state;
      expect(kept.lastEventSeq).toBe(seqs.length);
      const verified = (kept.steps[0]?.items ?? [])
        .filter((item) => item.status === 'ok')
        .map((item) => String(item.slot));
      expect(verified.length).toBeLessThan(6);

      const resumed = await resumeWorkflow({ runtime: fixture.runtime, runId });
      expect(resumed.exitCode).toBe(0);
      expect(resumed.state.steps[0]?.items?.map((item) => item.status)).toEqual(Array(6).fill('ok'));
      // The log goes on numbering from the last line written: no gap, no duplicate.
      const all = fixture.events(runId).map((event) => event.seq);
      expect(all).toEqual(all.map((_, i) => i + 1));
      // An item verified before the fault never runs again.
      const after = starts(fixture.simLogLines());
      for (const item of verified) expect(after.get(item), `item ${item}`).toBe(firstStarts.get(item));
    },
    60_000,
  );
});
