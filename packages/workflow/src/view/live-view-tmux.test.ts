import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTmux, requireTmux, runTmuxTests } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRun } from '../state/load-run';
import { runPaths } from '../state/run-paths';
import { WORKER_BUNDLE } from '../test-support/worker-process';
import { closeWorkflowFixtures, createWorkflowFixture } from '../test-support/workflow-fixture';
import { displayWidth } from './display-width';
import { renderRunView } from './render-run-view';

const TMUX = findTmux() ?? 'tmux';
const WORKER_SCRIPT = new URL('../test-support/workflow-worker.mjs', import.meta.url).pathname;
const V = 'bullswarm.workflow.program.v3';

afterEach(() => closeWorkflowFixtures());

function tmux(socket: string, ...args: string[]): string {
  return execFileSync(TMUX, ['-L', socket, ...args], { encoding: 'utf8' });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Skipped without tmux on PATH, unless BULLSWARM_REQUIRE_TMUX=1 (CI), which makes it fail instead.
describe.runIf(runTmuxTests())('the live view in a real pseudo-terminal (tmux)', () => {
  it('redraws in place and ends with the same frame the pure renderer draws', async () => {
    requireTmux();
    const fixture = await createWorkflowFixture([
      { account: 'a', scenario: { default: { scenario: 'slow', ms: 700, tickMs: 100 } } },
      {
        account: 'b',
        windows: [{ kind: 'weekly', usedPct: 60, resetsInMin: 5040 }],
        scenario: { default: { scenario: 'usage-limit', resetsInMin: 90 } },
      },
      { account: 'c', connector: 'echo' },
    ]);
    const program = join(fixture.root, 'live.json');
    writeFileSync(
      program,
      JSON.stringify({
        schemaVersion: V,
        name: 'live-demo',
        steps: [
          { id: 'write', prompt: 'Write it', route: { pools: { use: ['sim:a'] } } },
          { id: 'limited', prompt: 'Try', route: { pools: { use: ['sim:b'] } } },
          {
            id: 'review',
            dependsOn: ['write'],
            blindTo: ['write'],
            prompt: 'Check it',
            route: { pools: { use: ['echo:c'] } },
          },
          { id: 'after', dependsOn: ['limited'], prompt: 'Later' },
          {
            id: 'each',
            dependsOn: ['write'],
            prompt: 'Item {{item}}',
            forEach: { items: ['x', 'y', 'z'] },
            route: { pools: { use: ['echo:c'] } },
          },
        ],
      }),
    );
    const script = join(fixture.root, 'run.sh');
    const exports = Object.entries(fixture.env)
      .map(([key, value]) => `export ${key}='${value.replace(/'/g, `'\\''`)}'`)
      .join('\n');
    writeFileSync(
      script,
      `${exports}\nexport TERM=xterm-256color\n'${process.execPath}' '${WORKER_SCRIPT}' '${WORKER_BUNDLE}' live '${program}' '${fixture.work}'\necho "__DONE__ $?"\nsleep 600\n`,
    );
    const socket = `bullswarm-test-${process.pid}-${Date.now()}`;
    tmux(socket, 'new-session', '-d', '-x', '100', '-y', '40', '-s', 'view', `sh ${script}`);
    try {
      let pane = '';
      let sawRunning = false;
      for (let i = 0; i < 3000 && !pane.includes('__DONE__'); i++) {
        await sleep(20);
        pane = tmux(socket, 'capture-pane', '-p', '-t', 'view');
        if (pane.includes('⟡')) sawRunning = true;
      }
      expect(pane, pane).toContain('__DONE__ 0');
      expect(sawRunning, 'a frame with a running row was seen while the run was live').toBe(true);
      const lines = pane.split('\n');
      // Redrawn in place: one header, one summary, whatever number of frames were drawn.
      expect(lines.filter((line) => line.startsWith('bullswarm workflow · live-demo'))).toHaveLength(1);
      expect(lines.filter((line) => line.startsWith('── summary'))).toHaveLength(1);
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(100);

      const runId = /run (wf-[a-z0-9]+)/.exec(pane)?.[1] as string;
      const workflowsDir = join(fixture.home, 'workflows');
      const { state } = loadRun(workflowsDir, runId);
      const expected = renderRunView(state, {
        width: 100,
        now: Date.now(),
        live: false,
        reportPath: runPaths(workflowsDir, runId).reportPath,
      });
      const shown = lines.slice(
        0,
        lines.findIndex((line) => line.startsWith('__DONE__')),
      );
      expect(shown).toEqual(expected.map((line) => line.trimEnd()));

      // The layout: phases, rows with marks, the summary, the needs-you block.
      const text = shown.join('\n');
      expect(text).toMatch(/^▐ level 1\/2 · write, limited {2,}↩ needs you$/m);
      expect(text).toMatch(/^▐ level 2\/2 · review, after, each {2,}⋈ blocked$/m);
      expect(text).toMatch(/^ {2}✓ write {2,}sim:a {2,}\d+\.\ds {3}ok$/m);
      expect(text).toMatch(/^ {2}↩ limited {2,}sim:b {2,}\d+\.\ds {3}back to you · /m);
      expect(text).toMatch(/^ {2}✓ each\[2\/3\] z {2,}echo:c/m);
      expect(text).toMatch(/^ {2}⋈ after {2,}— {2,}— {3}waits for limited$/m);
      expect(text).toMatch(/^✓ 5 · ✗ 0 · ↩ 1 · ⋈ 1 {2,}elapsed \d/m);
      expect(text).toMatch(
        /^needs you:\n {2}↩ limited {2,}back at 2026-11-30T13:30:00Z · usage limit: .*\n {2}⋈ after {2,}waits for limited$/m,
      );
    } finally {
      tmux(socket, 'kill-server');
    }
  });
});
