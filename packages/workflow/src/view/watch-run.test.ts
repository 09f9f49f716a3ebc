import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '../state/event-log';
import { loadRun } from '../state/load-run';
import { runPaths } from '../state/run-paths';
import { closeWorkflowFixtures, createWorkflowFixture } from '../test-support/workflow-fixture';
import { renderRunView } from './render-run-view';
import { resolveWatchPollMs, watchRun } from './watch-run';

afterEach(() => closeWorkflowFixtures());

const program = {
  schemaVersion: 'bullswarm.workflow.program.v3',
  name: 'watched',
  steps: [
    { id: 'slow', prompt: 'Work slowly' },
    { id: 'after', dependsOn: ['slow'], prompt: 'Then this' },
  ],
};

describe('watchRun', () => {
  it('off a terminal prints every event as a JSON line while the run is live, then stops', async () => {
    const fixture = await createWorkflowFixture([
      { account: 'a', scenario: { default: { scenario: 'slow', ms: 400, tickMs: 100 } } },
    ]);
    let runId: string | undefined;
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const run = fixture.run(program, {
      onEvent: (event) => {
        if (event.type === 'run.started') {
          runId = event.runId;
          started();
        }
      },
    });
    await running;
    let printed = '';
    const workflowsDir = `${fixture.home}/workflows`;
    const watched = await watchRun({
      workflowsDir,
      runId: runId as string,
      out: { write: (text: string) => (printed += text) },
      tty: false,
      pollMs: 20,
    });
    const result = await run;
    expect(result.exitCode).toBe(0);
    expect(watched.live).toBe(false);
    const lines = printed
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual(readEvents(runPaths(workflowsDir, runId as string).eventsPath));
    expect(lines.at(-1).type).toBe('run.finished');
  });

  it('on a terminal ends with the final frame of the pure renderer (a replay of an ended run)', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }]);
    const result = await fixture.run(program);
    let printed = '';
    const workflowsDir = `${fixture.home}/workflows`;
    await watchRun({
      workflowsDir,
      runId: result.runId,
      out: { write: (text: string) => (printed += text), columns: 90, rows: 40 },
      tty: true,
    });
    // The frame: hide cursor, each line cleared and written, erase below, show cursor.
    const lines = printed
      .replace('\x1b[?25l', '')
      .replace(/\x1b\[J\x1b\[\?25h$/, '')
      .split('\n')
      .slice(0, -1)
      .map((line) => line.replace('\x1b[2K', ''));
    const { state } = loadRun(workflowsDir, result.runId);
    const expected = renderRunView(state, {
      width: 90,
      now: Date.now(),
      live: false,
      reportPath: result.paths.reportPath,
    });
    expect(lines).toEqual(expected);
  });
});

describe('resolveWatchPollMs', () => {
  const poll = (value?: string) => resolveWatchPollMs({ BULLSWARM_WORKFLOW_WATCH_POLL_SEC: value });

  it('reads seconds from 0.001 to 60 as ms; unset or empty leaves the default', () => {
    expect(poll(undefined)).toBeUndefined();
    expect(poll(' ')).toBeUndefined();
    expect(poll('0.001')).toBe(1);
    expect(poll('0.2')).toBe(200);
    expect(poll(' 60 ')).toBe(60_000);
  });

  it('refuses a value out of range or not a number, naming the variable and the range', () => {
    // 3000000 s is past what a Node timer holds (it would fire every 1 ms instead).
    for (const value of ['0', '0.0004', '60.5', '3000000', '1e3', '-1', 'soon']) {
      expect(() => poll(value), value).toThrow(
        `BULLSWARM_WORKFLOW_WATCH_POLL_SEC=${JSON.stringify(value)} is not valid: expected a number of seconds from 0.001 to 60`,
      );
    }
  });
});
