import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPidAlive } from '@bullswarm/connectors/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { runGate } from './run-gate';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bullswarm-gate-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('runGate', () => {
  it('runs an argv list without a shell and keeps its output in memory', async () => {
    const cwd = tempDir();
    const run = await runGate({
      command: [process.execPath, '-e', 'console.log("$HOME"); console.error(process.cwd())'],
      cwd,
    });
    expect(run.ok).toBe(true);
    expect(run.exitCode).toBe(0);
    expect(run.output).toContain('$HOME');
    expect(run.output).toContain(cwd);
    expect(run.why).toBe(
      `gate \`${process.execPath} -e console.log("$HOME"); console.error(process.cwd())\` passed`,
    );
  });

  it('runs a string through sh -c, streams to a 0600 log file and names the last line when it fails', async () => {
    const cwd = tempDir();
    const logFile = join(cwd, 'logs', 'gate.log');
    const run = await runGate({
      command: 'echo first; echo "boom $GATE_X" >&2; exit 3',
      cwd,
      logFile,
      env: { GATE_X: 'x' },
    });
    expect(run.ok).toBe(false);
    expect(run.exitCode).toBe(3);
    expect(readFileSync(logFile, 'utf8')).toBe('first\nboom x\n');
    expect(statSync(logFile).mode & 0o777).toBe(0o600);
    expect(run.why).toBe('gate `echo first; echo "boom $GATE_X" >&2; exit 3` failed (exit 3): boom x');
  });

  it('fails a missing binary (never a vacuous pass) and names a missing cwd as such', async () => {
    const cwd = tempDir();
    const missing = await runGate({ command: ['bullswarm-no-such-binary'], cwd });
    expect(missing.ok).toBe(false);
    expect(missing.exitCode).toBeNull();
    expect(missing.why).toMatch(/^gate `bullswarm-no-such-binary` failed \(could not start: .*ENOENT/);
    const gone = join(cwd, 'gone');
    const noCwd = await runGate({ command: 'true', cwd: gone });
    expect(noCwd.why).toBe(`gate \`true\` failed (could not start: its cwd ${gone} does not exist)`);
  });

  it('ends the whole process group when the time limit runs out, a grandchild too', async () => {
    const cwd = tempDir();
    const pidFile = join(cwd, 'grandchild.pid');
    const run = await runGate({
      command: `sh -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 1; done' & wait`,
      cwd,
      timeoutSec: 0.5,
      killGraceMs: 200,
    });
    expect(run.ok).toBe(false);
    expect(run.timedOut).toBe(true);
    expect(run.why).toMatch(/timed out after 0.5s/);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(isPidAlive(grandchild)).toBe(false);
  });

  it('ends the gate when the signal aborts', async () => {
    const abort = new AbortController();
    const running = runGate({
      command: ['sleep', '30'],
      cwd: tempDir(),
      signal: abort.signal,
      killGraceMs: 200,
    });
    setTimeout(() => abort.abort(), 100);
    const run = await running;
    expect(run.ok).toBe(false);
    expect(run.signal).toBe('SIGTERM');
  });
});
