import { resolve } from 'node:path';
import { runGate as runGateProcess } from '@bullswarm/dispatch';
import type { PlanGate } from '../plans/plan-schema';

/** One gate run. */
export interface GateRun {
  readonly command: readonly string[];
  readonly cwd: string;
  /** Exit 0 of a command that started; a missing binary or a signal is a failure, never a pass. */
  readonly passed: boolean;
  readonly exitCode: number | null;
  /** stdout and stderr, interleaved as captured (the last 8 KiB). */
  readonly output: string;
  readonly startedAt: number;
  readonly endedAt: number;
}

/** Options of {@link runGate}. */
export interface RunGateOptions {
  /** Environment of the gate (default `process.env`); given, it is the whole environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Wall-clock limit (default 10 minutes); past it the gate fails. */
  readonly timeoutMs?: number;
  readonly clock?: () => number;
}

/**
 * Runs a plan gate in a checkout through dispatch's gate runner: its command as argv (never a
 * shell), in `gate.cwd` relative to the checkout. It passes only on exit 0 of a command that
 * started: a missing binary (a vacuous pass elsewhere) is a failure.
 */
export async function runGate(
  gate: PlanGate,
  checkout: string,
  options: RunGateOptions = {},
): Promise<GateRun> {
  const cwd = resolve(checkout, gate.cwd ?? '.');
  const run = await runGateProcess({
    command: gate.command,
    cwd,
    ...(options.timeoutMs === undefined ? {} : { timeoutSec: options.timeoutMs / 1000 }),
    ...(options.env === undefined ? {} : { env: options.env, extendEnv: false }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  return {
    command: gate.command,
    cwd,
    passed: run.ok,
    exitCode: run.exitCode,
    output: run.output,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
  };
}
