import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isPidAlive, isRecordedProcessAlive, readProcessStartTime } from './process-liveness';

describe('process liveness', () => {
  it('sees this process alive, with a stable start time on Linux', () => {
    expect(isPidAlive(process.pid)).toBe(true);
    const start = readProcessStartTime(process.pid);
    if (process.platform === 'linux') {
      expect(start).toMatch(/^\d+$/);
      expect(readProcessStartTime(process.pid)).toBe(start);
      expect(isRecordedProcessAlive(process.pid, start)).toBe(true);
      expect(isRecordedProcessAlive(process.pid, `${start}0`)).toBe(false);
    } else {
      expect(start).toBeUndefined();
    }
    expect(isRecordedProcessAlive(process.pid, undefined)).toBe(true);
  });

  it('sees an exited process dead', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await once(child, 'exit');
    const pid = child.pid as number;
    expect(isPidAlive(pid)).toBe(false);
    expect(readProcessStartTime(pid)).toBeUndefined();
    expect(isRecordedProcessAlive(pid, undefined)).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'sees a zombie (exited, never reaped by its parent) dead',
    async () => {
      // `sleep 30` (exec'd by sh) becomes the parent of the background `sleep 0.3` and never waits
      // for it, so once that exits (well after the exec) it stays a zombie: kill(pid, 0) still
      // succeeds on it.
      const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 30'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        const [line] = (await once(parent.stdout!, 'data')) as [Buffer];
        const zombie = Number(line.toString().trim());
        const { readFileSync } = await import('node:fs');
        const state = () => readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]?.[0];
        for (let i = 0; i < 500 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
        expect(state()).toBe('Z');
        expect(() => process.kill(zombie, 0)).not.toThrow();
        expect(isPidAlive(zombie)).toBe(false);
        expect(isRecordedProcessAlive(zombie, readProcessStartTime(zombie))).toBe(false);
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it.each([0, -1, 1.5, Number.NaN])('treats %s as no process', (pid) => {
    expect(isPidAlive(pid)).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'reads field 22 even when the command name has spaces and parentheses',
    async () => {
      // The child renames itself so /proc/<pid>/stat's comm field holds ") (x y".
      const child = spawn(
        process.execPath,
        ['-e', "process.title = ') (x y'; process.stdout.write('ok'); setInterval(() => {}, 1000)"],
        {
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      await once(child.stdout, 'data');
      try {
        const start = readProcessStartTime(child.pid as number);
        expect(start).toMatch(/^\d+$/);
        expect(isRecordedProcessAlive(child.pid as number, start)).toBe(true);
      } finally {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    },
  );
});
