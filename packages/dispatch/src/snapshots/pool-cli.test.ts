import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearCommandLookupCache, SIM_CLI_PATH } from '@bullswarm/connectors';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchTask } from '../dispatch/dispatch-task';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import { closeDispatchFixtures, createDispatchFixture } from '../test-support/dispatch-fixture';
import { buildPoolSnapshots } from './build-pool-snapshots';
import { findPoolCli } from './pool-cli';
import { buildPoolViews } from './pool-view';

const dirs: string[] = [];
afterEach(async () => {
  await closeDispatchFixtures();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  clearCommandLookupCache();
});

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bullswarm-pool-cli-'));
  dirs.push(dir);
  return dir;
}

describe('findPoolCli: the CLI a pool runs, found without starting it', () => {
  it('finds a name on PATH, a path, a bundled name; says why one is missing', () => {
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'codex'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, 'codex'), 0o755);
    writeFileSync(join(bin, 'claude'), 'not executable');
    const codex = { command: 'codex' };
    expect(findPoolCli(codex, {}, {}, { PATH: `relative/dir:${bin}` })).toEqual({
      command: 'codex',
      path: join(bin, 'codex'),
    });
    expect(findPoolCli(codex, {}, {}, { PATH: '/nonexistent' })).toEqual({
      command: 'codex',
      path: null,
      problem: 'codex not on PATH',
    });
    // The account env's PATH is the one the agent is spawned with.
    expect(findPoolCli(codex, {}, { PATH: bin }, { PATH: '/nonexistent' })?.path).toBe(join(bin, 'codex'));
    // A file that is not executable does not count.
    expect(findPoolCli({ command: 'claude' }, {}, {}, { PATH: bin })?.problem).toBe('claude not on PATH');
    // The pool's own command wins; a path is that file.
    expect(findPoolCli(codex, { command: '/opt/codex/bin/codex' }, {}, { PATH: bin })).toEqual({
      command: '/opt/codex/bin/codex',
      path: null,
      problem: '/opt/codex/bin/codex does not exist',
    });
    expect(findPoolCli(codex, { command: join(bin, 'claude') }, {}, {})?.problem).toBe(
      `${join(bin, 'claude')} is not executable`,
    );
    expect(findPoolCli(codex, { command: bin }, {}, {})?.problem).toBe(
      `${bin} is a directory, not a program`,
    );
    expect(findPoolCli({ command: 'bullswarm-sim' }, {}, {}, {})).toEqual({
      command: 'bullswarm-sim',
      path: SIM_CLI_PATH,
    });
    // A connector that does not say what it runs is not checked.
    expect(findPoolCli({}, {}, {}, {})).toBeUndefined();
  });
});

describe('a pool whose CLI is missing is unavailable, not ready', () => {
  /** sim:a runs a CLI that is not there (its `pools add --command`); sim:b is fine. */
  async function homeWithMissingCli(): Promise<{ runtime: BullswarmRuntime; simLog: () => unknown[] }> {
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10) },
      { account: 'b', windows: weekly(60) },
    ]);
    f.runtime.home.updateState((draft) => {
      draft.pools.find((pool) => pool.id === 'sim:a')!.command = '/nonexistent/bin/codex';
    });
    const runtime = await f.openAnother();
    return { runtime, simLog: f.simLogLines };
  }

  it('shows as unavailable with the reason and the CLI it looked for', async () => {
    const { runtime } = await homeWithMissingCli();
    try {
      const views = buildPoolViews(await buildPoolSnapshots(runtime));
      expect(views.map((view) => [view.id, view.state, view.problem, view.cli])).toEqual([
        [
          'sim:a',
          'unavailable',
          '/nonexistent/bin/codex does not exist',
          { command: '/nonexistent/bin/codex', path: null },
        ],
        ['sim:b', 'ready', null, { command: 'bullswarm-sim', path: SIM_CLI_PATH }],
      ]);
    } finally {
      await runtime.close();
    }
  });

  it('is never picked: the task goes to the next pool, the reason names why', async () => {
    const { runtime, simLog } = await homeWithMissingCli();
    try {
      const result = await dispatchTask(runtime, {
        action: 'run',
        prompt: 'Explain the parser',
        lane: 'analyze',
        kind: 'single-run',
        cwd: runtime.home.home,
        outputDir: join(runtime.home.home, 'out'),
      });
      expect(result).toMatchObject({ ok: true, poolId: 'sim:b' });
      expect(result.reason).toBe(
        'most-behind capable pool (surplus -10) · excluded: sim:a /nonexistent/bin/codex does not exist',
      );
      expect(simLog()).toHaveLength(1);
    } finally {
      await runtime.close();
    }
  });

  it('a pin on it comes back at once with the reason: no attempt, no retry on the same missing binary', async () => {
    const { runtime, simLog } = await homeWithMissingCli();
    try {
      const result = await dispatchTask(runtime, {
        action: 'run',
        prompt: 'Explain the parser',
        lane: 'analyze',
        kind: 'single-run',
        cwd: runtime.home.home,
        outputDir: join(runtime.home.home, 'out'),
        pin: { poolId: 'sim:a', source: 'operator', shownAs: '--worker-pool' },
        retryAttempts: 3,
      });
      expect(result).toMatchObject({
        ok: false,
        kind: 'unavailable',
        poolId: null,
        why: 'pinned to sim:a (--worker-pool): /nonexistent/bin/codex does not exist',
        attempts: [],
      });
      expect(simLog()).toEqual([]);
      expect(await runtime.store!.ledger.list()).toEqual([]);
      expect(await runtime.store!.runs.list()).toEqual([]);
    } finally {
      await runtime.close();
    }
  });
});
