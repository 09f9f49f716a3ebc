import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@bullswarm/store';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** What a command left in the home: run folders, workflow runs, run records, ledger entries. */
function footprint(home: string) {
  const list = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
  const store = openStore({ dbPath: join(home, 'bullswarm.db') });
  try {
    return {
      runs: list(join(home, 'runs')),
      workflows: list(join(home, 'workflows')),
      records: store.runs.list().length,
      ledger: store.ledger.list().length,
    };
  } finally {
    store.close();
  }
}

describe('every BULLSWARM_* setting is checked before a command does anything', () => {
  it('a bad value of a dispatch, swarm, clock or poll setting stops run, workflow goal/resume, swarm commands, dashboard and mcp with exit 2 naming it, before any run exists', async () => {
    const root = dirs.make();
    const home = join(root, 'home');
    const work = join(root, 'work');
    mkdirSync(work);
    writeTestHome(home, {
      now: NOW,
      pools: [
        { connector: 'sim', account: 'a', windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }] },
      ],
    });
    const program = join(root, 'p.json');
    writeFileSync(
      program,
      JSON.stringify({ schemaVersion: 'bullswarm.workflow.program.v3', steps: [{ id: 'a', prompt: 'x' }] }),
    );
    const env = nowEnv(NOW);
    // One run of each kind, so resume has a run to refuse.
    const goal = await bullswarm(['workflow', 'goal', program, '--json'], { home, cwd: work, env });
    expect(goal.exitCode, goal.stderr).toBe(0);
    const runId = (JSON.parse(goal.stdout) as { runId: string }).runId;
    const before = footprint(home);

    const settings: readonly (readonly [string, string])[] = [
      ['BULLSWARM_THROTTLE_BACKOFF_SEC', 'xyz'],
      ['BULLSWARM_WORKER_NO_PROGRESS_SEC', 'zero'],
      ['BULLSWARM_WORKER_SILENCE_SEC', '-1'],
      ['BULLSWARM_WHEN_READY_POLL_SEC', '0'],
      ['BULLSWARM_WORKFLOW_WATCH_POLL_SEC', 'soon'],
      ['BULLSWARM_LEASE_TTL_SEC', '-5'],
      ['BULLSWARM_CAPACITY_LOW', '200'],
      ['BULLSWARM_REMOTE_TIMEOUT_SEC', 'never'],
      ['BULLSWARM_NOW', 'yesterday'],
    ];
    const commands: readonly (readonly string[])[] = [
      ['run', '--lane', 'build', 'hello'],
      ['workflow', 'goal', program],
      ['workflow', 'resume', runId],
      ['capacity'],
      ['notify', 'lane-b', 'hello', '--as', 'lane-a'],
      ['dashboard', '--port', '0'],
      ['mcp'],
    ];
    for (const [variable, value] of settings) {
      for (const args of commands) {
        const result = await bullswarm(args, { home, cwd: work, env: { ...env, [variable]: value } });
        const what = `${variable}=${value} ${args.join(' ')}`;
        expect(result.exitCode, `${what}: ${result.stderr}`).toBe(2);
        expect(result.stderr, what).toMatch(new RegExp(`^error: ${variable}[ =]"${value}" is not valid`));
        expect(result.stdout, what).toBe('');
      }
    }
    expect(footprint(home)).toEqual(before);
    // The MCP server's own setting is checked by `bullswarm mcp` before it serves.
    const mcp = await bullswarm(['mcp'], {
      home,
      cwd: work,
      env: { ...env, BULLSWARM_MCP_PROGRESS_SEC: 'no' },
    });
    expect(mcp.exitCode).toBe(2);
    expect(mcp.stderr).toMatch(/^error: BULLSWARM_MCP_PROGRESS_SEC="no" is not valid/);
  }, 300_000);
});
