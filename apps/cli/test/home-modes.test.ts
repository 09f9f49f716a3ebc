import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@bullswarm/store';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** Every path under `dir` (not `dir` itself) with its permission bits. */
function walk(dir: string): { path: string; mode: number; directory: boolean }[] {
  const found: { path: string; mode: number; directory: boolean }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    found.push({ path, mode: stat.mode & 0o777, directory: stat.isDirectory() });
    if (stat.isDirectory()) found.push(...walk(path));
  }
  return found;
}

describe('file modes under a home open to others', () => {
  it('everything bullswarm creates in a 0755 home is 0600 or 0700, and each command warns once naming the home and the chmod', async () => {
    const root = dirs.make();
    const home = join(root, 'home');
    mkdirSync(home);
    chmodSync(home, 0o755);
    const work = join(root, 'work');
    mkdirSync(work);
    const program = join(root, 'program.json');
    writeFileSync(
      program,
      JSON.stringify({
        schemaVersion: 'bullswarm.workflow.program.v3',
        steps: [
          {
            id: 'facts',
            prompt: 'facts [sim:json]',
            outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
            gate: [process.execPath, '-e', 'console.log("gate ran")'],
          },
          { id: 'each', prompt: 'item {{item}}', forEach: { items: ['one', 'two'] }, dependsOn: ['facts'] },
          { id: 'blind', prompt: 'review', dependsOn: ['each'], blindTo: ['each'] },
        ],
      }),
    );
    const options = { home, cwd: work, env: { BULLSWARM_SIM_LOG: join(root, 'sim.log') } };
    const commands = [
      ['pools', 'add', 'sim:a', '--env', 'ACME_API_KEY=pool-secret-value-1'],
      ['pools', 'add', 'sim:b', '--label', 'bee'],
      ['run', '--lane', 'build', 'hello'],
      ['run', '--lane', 'build', 'crash once [sim:crash]'],
      ['workflow', 'goal', program, '--json'],
      ['pools'],
      ['workflow', 'list'],
    ];
    const chmod = `chmod 700 ${home}`;
    for (const args of commands) {
      const result = await bullswarm(args, options);
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBeLessThanOrEqual(1);
      const warnings = result.stderr.split('\n').filter((line) => line.includes('open to other users'));
      expect(warnings, args.join(' ')).toHaveLength(1);
      expect(warnings[0]).toContain(`${home} is open to other users of this machine (mode 0755)`);
      expect(warnings[0]).toContain(chmod);
    }
    const entries = walk(home);
    // The store, run records and attempts, a workflow's files, schemas, gates, candidates, the sims.
    for (const expected of ['bullswarm.db', 'state.json', 'runs', 'workflows', 'sim']) {
      expect(
        entries.some((entry) => entry.path === join(home, expected)),
        expected,
      ).toBe(true);
    }
    expect(entries.some((entry) => entry.path.includes('/attempts/'))).toBe(true);
    expect(entries.some((entry) => entry.path.includes('/candidates/'))).toBe(true);
    expect(entries.some((entry) => entry.path.includes('/gates/'))).toBe(true);
    expect(entries.some((entry) => entry.path.includes('/schemas/'))).toBe(true);
    const wrong = entries
      .filter((entry) => entry.mode !== (entry.directory ? 0o700 : 0o600))
      .map((entry) => `${entry.mode.toString(8)} ${entry.path}`);
    expect(wrong).toEqual([]);
    // The database's -wal and -shm (there while a process has it open) take its 0600.
    const store = openStore({ dbPath: join(home, 'bullswarm.db') });
    try {
      store.runs.list();
      for (const side of ['-wal', '-shm']) {
        expect((lstatSync(join(home, `bullswarm.db${side}`)).mode & 0o777).toString(8), side).toBe('600');
      }
    } finally {
      store.close();
    }
    // Once made private, nothing more is said.
    chmodSync(home, 0o700);
    const quiet = await bullswarm(['pools'], options);
    expect(quiet.stderr).not.toContain('open to other users');
  }, 120_000);
});
