import { resolve } from 'node:path';
import { execa } from 'execa';
import type { PlanGate } from '../plans/plan-schema';

/** One gate run. */
export interface GateRun {
  readonly command: readonly string[];
  readonly cwd: string;
  /** Exit 0 of a command that started; a missing binary or a signal is a failure, never a pass. */
  readonly passed: boolean;
  readonly exitCode: number | null;
  /** stdout and stderr, interleaved as captured (trimmed to 8 KiB). */
  readonly output: string;
  readonly startedAt: number;
  readonly endedAt: number;
}

/** Options of {@link runGate}. */
export interface RunGateOptions {
  /** Environment of the gate (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Wall-clock limit (default 10 minutes); past it the gate fails. */
  readonly timeoutMs?: number;
  readonly clock?: () => number;
}

/**
 * Runs a plan gate in a checkout: its command as argv (never a shell), in `gate.cwd` relative to
 * the checkout. It passes only on exit 0 of a command that started: a missing binary (a vacuous
 * pass elsewhere) is a failure.
 */
export async function runGate(
  gate: PlanGate,
  checkout: string,
  options: RunGateOptions = {},
): Promise<GateRun> {
  const clock = options.clock ?? Date.now;
  const cwd = resolve(checkout, gate.cwd ?? '.');
  const startedAt = clock();
  const [file, ...args] = gate.command as [string, ...string[]];
  const result = await execa(file, args, {
    cwd,
    reject: false,
    all: true,
    stdin: 'ignore',
    timeout: options.timeoutMs ?? 600_000,
    ...(options.env === undefined ? {} : { env: options.env, extendEnv: false }),
  });
  const captured = String(result.all ?? '');
  const output =
    captured !== ''
      ? captured
      : result.failed && result.exitCode === undefined
        ? String(result.shortMessage ?? '')
        : '';
  return {
    command: gate.command,
    cwd,
    passed: !result.failed && result.exitCode === 0,
    exitCode: result.exitCode ?? null,
    output: output.length > 8192 ? `${output.slice(0, 8192)}…` : output,
    startedAt,
    endedAt: clock(),
  };
}
