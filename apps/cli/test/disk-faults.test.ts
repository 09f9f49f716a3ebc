import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, startBullswarm, tempDirs } from './support/cli';

// Faults made for real where this process may mount a small tmpfs (root outside a restricted
// container): a read-only remount, a full file system. Elsewhere (CI without mount rights) the
// same commands run with the test-only write-fault injector (BULLSWARM_TEST_WRITE_FAULT, see
// packages/connectors/src/files/write-fault.ts) instead; BULLSWARM_TEST_NO_MOUNT=1 forces that here.
const dirs = tempDirs();
const mounts: string[] = [];
afterEach(() => {
  for (const mount of mounts.splice(0).reverse()) spawnSync('umount', ['-l', mount]);
  dirs.cleanup();
});

function tryMount(dir: string, sizeKb: number): boolean {
  if (process.env.BULLSWARM_TEST_NO_MOUNT === '1') return false;
  mkdirSync(dir, { recursive: true });
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0700`, 'tmpfs', dir], {
    stdio: 'ignore',
  });
  if (result.status !== 0) return false;
  mounts.push(dir);
  return true;
}

function remountReadOnly(dir: string): void {
  const result = spawnSync('mount', ['-o', 'remount,ro', dir], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
}

/** Fills the file system of `dir` with one file; returns it (remove it to free the space). */
function fill(dir: string): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  const block = Buffer.alloc(16 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch {
    // ENOSPC: full
  } finally {
    closeSync(fd);
  }
  return filler;
}

const NOT_A_BUG = /looks like a bug|\n\s+at /;
const PROGRAM = {
  schemaVersion: 'bullswarm.workflow.program.v3',
  settings: { concurrency: 2 },
  steps: [
    {
      id: 'each',
      prompt: 'ITEM<{{item}}> [sim:slow,ms=400,tickMs=2]',
      forEach: { items: [0, 1, 2, 3, 4, 5, 6, 7] },
    },
  ],
};

describe('a read-only home', () => {
  it('read-only commands work; commands that write exit 2 naming the home, never "a bug"', async () => {
    const root = dirs.make();
    const mountDir = join(root, 'mnt');
    const mounted = tryMount(mountDir, 16 * 1024);
    const home = join(mounted ? mountDir : root, 'home');
    const work = join(root, 'work');
    mkdirSync(work);
    const program = join(root, 'p.json');
    writeFileSync(program, JSON.stringify({ ...PROGRAM, steps: [{ id: 'one', prompt: 'hello' }] }));
    expect((await bullswarm(['pools', 'add', 'sim:a'], { home })).exitCode).toBe(0);
    const goal = await bullswarm(['workflow', 'goal', program, '--json'], { home, cwd: work });
    expect(goal.exitCode, goal.stderr).toBe(0);
    const runId = (JSON.parse(goal.stdout) as { runId: string }).runId;
    expect((await bullswarm(['run', '--lane', 'build', 'hi'], { home, cwd: work })).exitCode).toBe(0);

    if (mounted) remountReadOnly(mountDir);
    const env = mounted ? {} : { BULLSWARM_TEST_WRITE_FAULT: 'EROFS:bullswarm.db' };
    for (const args of [
      ['pools'],
      ['pools', '--json'],
      ['assignments'],
      ['workflow', 'list'],
      ['workflow', 'show', runId],
    ]) {
      const result = await bullswarm(args, { home, cwd: work, env });
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.stderr).not.toMatch(NOT_A_BUG);
    }
    const refused = [
      await bullswarm(['run', '--lane', 'build', 'hi'], { home, cwd: work, env }),
      await bullswarm(['workflow', 'resume', runId], { home, cwd: work, env }),
    ];
    for (const result of refused) {
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain(
        `error: the bullswarm store ${join(home, 'bullswarm.db')} cannot be written (SQLITE_READONLY`,
      );
      expect(result.stderr).not.toMatch(NOT_A_BUG);
    }
    if (mounted) {
      const add = await bullswarm(['pools', 'add', 'sim:b'], { home });
      expect(add.exitCode).toBe(2);
      expect(add.stderr).toMatch(
        /^error: cannot open .*\.state\.json\.lock: its file system is read-only \(EROFS\)/,
      );
      // A home that cannot be created there.
      const fresh = await bullswarm(['pools', 'add', 'sim:a'], { home: join(mountDir, 'new-home') });
      expect(fresh.exitCode).toBe(2);
      expect(fresh.stderr).toContain(
        `error: the bullswarm home ${join(mountDir, 'new-home')} cannot be created: its file system is read-only (EROFS): choose a home you can write`,
      );
    } else {
      const file = join(root, 'a-file');
      writeFileSync(file, '');
      const fresh = await bullswarm(['pools', 'add', 'sim:a'], { home: join(file, 'new-home') });
      expect(fresh.exitCode).toBe(2);
      expect(fresh.stderr).toContain('is not a directory (a file is in its path)');
    }
  }, 120_000);
});

describe('a full disk during a workflow', () => {
  it('exits 1 naming the file and resume, leaves whole lines and no temp file; after freeing space resume finishes', async () => {
    const root = dirs.make();
    const home = join(root, 'home');
    const work = join(root, 'work');
    mkdirSync(work);
    const program = join(root, 'p.json');
    writeFileSync(program, JSON.stringify(PROGRAM));
    expect((await bullswarm(['pools', 'add', 'sim:a'], { home })).exitCode).toBe(0);
    // The run's files live on a small file system that fills up while it runs.
    const workflows = join(home, 'workflows');
    const mounted = tryMount(workflows, 4 * 1024);
    const env = mounted ? {} : { BULLSWARM_TEST_WRITE_FAULT: 'ENOSPC:events.jsonl:14' };
    const goal = startBullswarm(['workflow', 'goal', program, '--json'], { home, cwd: work, env });
    let filler: string | undefined;
    if (mounted) {
      const finished = () => {
        const runId = existsSync(workflows)
          ? readdirSync(workflows).find((name) => name.startsWith('wf-'))
          : undefined;
        const events = runId === undefined ? '' : join(workflows, runId, 'events.jsonl');
        return events !== '' && existsSync(events)
          ? readFileSync(events, 'utf8')
              .split('\n')
              .filter((line) => line.includes('"unit.finished"')).length
          : 0;
      };
      for (let i = 0; i < 1500 && finished() < 2; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(finished()).toBeGreaterThanOrEqual(2);
      filler = fill(workflows);
    }
    const result = await goal.catch((error: { exitCode?: number; stderr?: string }) => error);
    const stderr = String(result.stderr);
    expect(result.exitCode, stderr).toBe(1);
    expect(stderr).not.toMatch(NOT_A_BUG);
    const runId = readdirSync(workflows).find((name) => name.startsWith('wf-')) as string;
    const runDir = join(workflows, runId);
    expect(stderr).toMatch(
      new RegExp(
        `error: cannot write ${runDir}/\\S+: no space left on its disk \\(ENOSPC\\).*bullswarm workflow resume ${runId}`,
      ),
    );
    const lines = readFileSync(join(runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    for (const line of lines) JSON.parse(line); // every line whole
    expect(readdirSync(runDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    if (filler !== undefined) rmSync(filler);
    const resumed = await bullswarm(['workflow', 'resume', runId, '--json'], { home, cwd: work });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout) as { counts: { ok: number } };
    expect(report.counts.ok).toBe(8);
  }, 120_000);
});
