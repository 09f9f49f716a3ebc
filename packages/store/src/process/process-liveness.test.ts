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
