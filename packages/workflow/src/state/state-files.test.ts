import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkflowError } from '../errors/workflow-error';
import { ENGINE_VERSION } from '../version';
import { EventLog, readEvents } from './event-log';
import { loadRun } from './load-run';
import { runPaths } from './run-paths';
import type { RunState } from './run-state';
import { CoalescingStateWriter } from './state-writer';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wf-state-'));
  dirs.push(dir);
  return dir;
}

function baseState(runId: string, lastEventSeq: number): RunState {
  return {
    stateVersion: 1,
    engineVersion: ENGINE_VERSION,
    runId,
    cwd: '/work',
    status: 'running',
    createdAt: 1,
    updatedAt: 1,
    options: { concurrency: 2 },
    inputs: {},
    levels: [['each']],
    lastEventSeq,
    steps: [
      {
        id: 'each',
        level: 1,
        fanOut: true,
        status: 'running',
        items: [
          { slot: 0, item: 'a', label: 'a', action: 'each.0', status: 'ok', attempts: [], fingerprint: 'f0' },
        ],
        nextSlot: 1,
      },
    ],
  };
}

describe('CoalescingStateWriter', () => {
  it('batches a burst of changes into a bounded number of atomic writes, ending with the latest', async () => {
    const dir = temp();
    const path = join(dir, 'state.json');
    let version = 0;
    const writer = new CoalescingStateWriter(path, () => JSON.stringify({ version }), {
      minIntervalMs: 60_000,
    });
    for (let i = 0; i < 1000; i++) {
      version = i;
      writer.request();
    }
    await writer.flush();
    expect(writer.writes).toBeLessThanOrEqual(2);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 999 });
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});

describe('EventLog', () => {
  it('seals a torn last line before appending, so the next event is kept whole', async () => {
    const dir = temp();
    const path = join(dir, 'events.jsonl');
    const first = { seq: 1, at: 1, runId: 'wf-seal1', type: 'step.started', step: 'a' } as const;
    writeFileSync(path, `${JSON.stringify(first)}\n{"seq":2,"at":1,"runId":"wf-se`);
    const log = new EventLog(path);
    log.append({ seq: 2, at: 2, runId: 'wf-seal1', type: 'step.started', step: 'b' });
    log.append({ seq: 3, at: 3, runId: 'wf-seal1', type: 'step.started', step: 'c' });
    await log.close();
    expect(readEvents(path).map((event) => event.seq)).toEqual([1, 2, 3]);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines[1]).toBe('{"seq":2,"at":1,"runId":"wf-se');
    expect(lines).toHaveLength(5);
  });

  it('leaves a log that ends whole as it is', async () => {
    const dir = temp();
    const path = join(dir, 'events.jsonl');
    const first = { seq: 1, at: 1, runId: 'wf-seal2', type: 'step.started', step: 'a' } as const;
    writeFileSync(path, `${JSON.stringify(first)}\n`);
    const log = new EventLog(path);
    log.append({ seq: 2, at: 2, runId: 'wf-seal2', type: 'step.started', step: 'b' });
    await log.close();
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3);
  });
});

describe('loadRun', () => {
  it('replays verdicts newer than state.json and skips a torn last line', async () => {
    const workflowsDir = temp();
    const paths = runPaths(workflowsDir, 'wf-replay1');
    mkdirSync(paths.runDir);
    writeFileSync(paths.statePath, JSON.stringify(baseState('wf-replay1', 2)));
    const log = new EventLog(paths.eventsPath);
    const at = 5;
    log.append({ seq: 1, at, runId: 'wf-replay1', type: 'step.started', step: 'each' });
    log.append({ seq: 2, at, runId: 'wf-replay1', type: 'unit.started', step: 'each', slot: 0 });
    log.append(
      {
        seq: 3,
        at,
        runId: 'wf-replay1',
        type: 'unit.finished',
        step: 'each',
        slot: 1,
        unit: {
          slot: 1,
          item: 'b',
          label: 'b',
          action: 'each.1',
          status: 'ok',
          attempts: [],
          fingerprint: 'f1',
        } as never,
      },
      true,
    );
    await log.close();
    writeFileSync(paths.eventsPath, `${readFileSync(paths.eventsPath, 'utf8')}{"seq":4,"type":"unit.fin`);
    const loaded = loadRun(workflowsDir, 'wf-replay1');
    expect(loaded.replayed).toBe(1);
    expect(loaded.state.lastEventSeq).toBe(3);
    expect(loaded.state.steps[0]?.items?.map((item) => [item.slot, item.status])).toEqual([
      [0, 'ok'],
      [1, 'ok'],
    ]);
    expect(loaded.state.steps[0]?.nextSlot).toBe(2);
    expect(readEvents(paths.eventsPath)).toHaveLength(3);
    // Replayed events move updatedAt to the last recorded event (where a killed run's times stop).
    expect(loaded.state.updatedAt).toBe(at);
  });

  it('reads a restart pin written before pin sources were domain values (step restart) as step-restart', () => {
    const workflowsDir = temp();
    const paths = runPaths(workflowsDir, 'wf-oldpin1');
    mkdirSync(paths.runDir);
    const state = baseState('wf-oldpin1', 0);
    const old = {
      ...state,
      steps: [{ ...state.steps[0]!, pin: { poolId: 'sim:a', source: 'step restart' } }],
    };
    writeFileSync(paths.statePath, JSON.stringify(old));
    expect(loadRun(workflowsDir, 'wf-oldpin1').state.steps[0]?.pin).toEqual({
      poolId: 'sim:a',
      source: 'step-restart',
    });
  });

  it('a state.json that is not JSON is named with the line and column, its text never quoted', () => {
    const workflowsDir = temp();
    const paths = runPaths(workflowsDir, 'wf-broken2');
    mkdirSync(paths.runDir);
    writeFileSync(paths.statePath, '{\n  "runId": "wf-broken2",\n  "secret": "sk-live-abc" }}\n');
    const error = (() => {
      try {
        loadRun(workflowsDir, 'wf-broken2');
      } catch (e) {
        return e;
      }
    })() as WorkflowError;
    expect(WorkflowError.isInstance(error) && error.kind).toBe('run-state-invalid');
    expect(error.message).toBe(
      `${paths.statePath} is not valid JSON: unexpected "}" after the end of the JSON value at line 3, column 28`,
    );
    expect(error.message).not.toContain('sk-live');
  });

  it('names the file and field of a bad state.json, and refuses another stateVersion', () => {
    const workflowsDir = temp();
    const paths = runPaths(workflowsDir, 'wf-broken1');
    mkdirSync(paths.runDir);
    writeFileSync(paths.statePath, JSON.stringify({ ...baseState('wf-broken1', 0), levels: 'x' }));
    expect(() => loadRun(workflowsDir, 'wf-broken1')).toThrow(/state\.json: \$\.levels: /);
    writeFileSync(paths.statePath, JSON.stringify({ ...baseState('wf-broken1', 0), stateVersion: 2 }));
    const error = (() => {
      try {
        loadRun(workflowsDir, 'wf-broken1');
      } catch (e) {
        return e;
      }
    })();
    expect(WorkflowError.isInstance(error) && error.kind).toBe('run-state-invalid');
    expect((error as Error).message).toContain('stateVersion 2 is not readable');
    expect(() => loadRun(workflowsDir, 'wf-nothere')).toThrow(/no workflow run wf-nothere/);
    expect(() => loadRun(workflowsDir, '../etc')).toThrow(/is not a run id/);
  });
});
