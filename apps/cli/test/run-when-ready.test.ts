import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@bullswarm/store';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, startBullswarm, tempDirs } from './support/cli';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/**
 * A home whose one sim pool, `sim:a`, is at its weekly limit until `resetsInSec` after `now`. With
 * `now` the real time (no BULLSWARM_NOW) the reset really comes a few seconds later: that is how
 * these tests shorten the wait, through the home's reading, never through a user default.
 */
function spentHome(now: number, resetsInSec: number) {
  const home = dirs.make('bullswarm-cli-when-ready-');
  writeTestHome(home, {
    now,
    pools: [
      {
        connector: 'sim',
        account: 'a',
        windows: [{ kind: 'weekly', usedPct: 100, resetsInMin: resetsInSec / 60 }],
        scenario: { default: { scenario: 'ok', answer: 'done after the reset' } },
      },
    ],
  });
  const work = join(home, 'work');
  mkdirSync(work);
  const simLog = join(home, 'sim.log');
  return { home, work, simLog, env: { BULLSWARM_SIM_LOG: simLog, BULLSWARM_WHEN_READY_POLL_SEC: '0.2' } };
}

/** Resolves once `text` has appeared on the stream (rejects after `ms`). */
function waitForText(stream: NodeJS.ReadableStream, text: string, ms = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`never saw "${text}" in: ${seen}`)), ms);
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) {
        clearTimeout(timer);
        resolve(seen);
      }
    });
  });
}

function inflight(home: string) {
  const store = openStore({ dbPath: join(home, 'bullswarm.db') });
  try {
    return store.ledger.list();
  } finally {
    store.close();
  }
}

describe('bullswarm run --when-ready', () => {
  it('waits for the back-at with a countdown, re-reads the meters and runs the task', async () => {
    const h = spentHome(Date.now(), 8);
    const result = await bullswarm(['run', '--lane', 'analyze', '--when-ready', 'x'], {
      home: h.home,
      env: h.env,
      cwd: h.work,
    });
    expect(result.stderr).toMatch(/waiting until \S+Z \(the earliest back-at\) · resuming in \d+s\n/);
    expect(result.stderr).toMatch(/back at \S+Z: resuming\n/);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('done after the reset\n');
  });

  it('a pool that comes back early (meters set from another process) ends the wait early', async () => {
    const h = spentHome(Date.now(), 600);
    const run = startBullswarm(['run', '--lane', 'analyze', '--when-ready', '--json', 'x'], {
      home: h.home,
      env: h.env,
      cwd: h.work,
    });
    await waitForText(run.stderr!, 'waiting until');
    const set = await bullswarm(['meters', 'set', 'sim:a', '--weekly', '10'], { home: h.home });
    expect(set.exitCode).toBe(0);
    const result = await run;
    expect(result.stderr).toContain('back early: sim:a has quota again: resuming\n');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(String(result.stdout))).toMatchObject({ ok: true, poolId: 'sim:a' });
  });

  it('Ctrl-C during the wait stops it cleanly: exit 1, nothing dispatched, the ledger empty', async () => {
    const h = spentHome(Date.now(), 600);
    const run = startBullswarm(['run', '--lane', 'analyze', '--when-ready', 'x'], {
      home: h.home,
      env: h.env,
      cwd: h.work,
    });
    await waitForText(run.stderr!, 'waiting until');
    run.kill('SIGINT');
    const result = await run;
    expect(result.exitCode).toBe(1);
    expect(String(result.stderr)).toContain('stopped before resuming\n');
    expect(existsSync(h.simLog)).toBe(false);
    expect(inflight(h.home)).toEqual([]);
  });

  it('--max-wait: a back-at further away exits 1 at once with the back-at', async () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    const h = spentHome(now, 600);
    const result = await bullswarm(['run', '--lane', 'analyze', '--when-ready', '--max-wait', '5m', 'x'], {
      home: h.home,
      env: { ...h.env, ...nowEnv(now) },
      cwd: h.work,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'NO POOL no pool with quota to spare: sim:a at its weekly limit until 2026-11-30T12:10:00Z\n' +
        '--max-wait 5m: the earliest back-at is 10m away, longer than the wait allowed; not waiting\n' +
        'back at 2026-11-30T12:10:00Z\n',
    );
    expect(existsSync(h.simLog)).toBe(false);
    const json = await bullswarm(
      ['run', '--lane', 'analyze', '--when-ready', '--max-wait', '5m', '--json', 'x'],
      { home: h.home, env: { ...h.env, ...nowEnv(now) }, cwd: h.work },
    );
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      kind: 'quota',
      backAt: '2026-11-30T12:10:00Z',
    });
  });

  it('a back-at that does not move (a frozen clock) ends the wait after one round, as a plain no-pool', async () => {
    const backAt = Date.parse('2026-11-30T12:10:00Z');
    const h = spentHome(backAt - 600_000, 600);
    // bullswarm's clock stays 1.5 s before the back-at: after the real wait the pool is still spent.
    const result = await bullswarm(['run', '--lane', 'analyze', '--when-ready', 'x'], {
      home: h.home,
      env: { ...h.env, BULLSWARM_NOW: new Date(backAt - 1500).toISOString() },
      cwd: h.work,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('back at 2026-11-30T12:10:00Z: resuming\n');
    expect(result.stderr).toContain(
      '--when-ready: still no pool after the back-at 2026-11-30T12:10:00Z; not waiting again\n',
    );
    expect(result.stderr).toContain('FAILED [no pool] quota: no pool with quota to spare');
  });

  it.each([
    [['--max-wait', '1h'], '--max-wait bounds --when-ready: add --when-ready'],
    [
      ['--when-ready', '--max-wait', 'soon'],
      '--max-wait "soon" is not valid: expected a duration such as 3h',
    ],
  ])('refuses %j with exit 2', async (flags, message) => {
    const h = spentHome(Date.now(), 600);
    const result = await bullswarm(['run', '--lane', 'analyze', ...flags, 'x'], {
      home: h.home,
      cwd: h.work,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('checks BULLSWARM_WHEN_READY_POLL_SEC before anything waits or runs', async () => {
    const h = spentHome(Date.now(), 600);
    const result = await bullswarm(['run', '--lane', 'analyze', '--when-ready', 'x'], {
      home: h.home,
      env: { ...h.env, BULLSWARM_WHEN_READY_POLL_SEC: '9000' },
      cwd: h.work,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'BULLSWARM_WHEN_READY_POLL_SEC="9000" is not valid: expected a number of seconds from 0.001 to 600',
    );
    expect(result.stderr).not.toContain('waiting until');
    const help = await bullswarm(['run', '--help']);
    expect(help.stdout).toContain('--when-ready');
    expect(help.stdout).toContain('BULLSWARM_WHEN_READY_POLL_SEC');
  });
});
