import type { PoolDetail } from '@bullswarm/dispatch/routing';
import { CliExit } from '../cli/cli-errors';
import { type CommandContext, printJson, withRuntime } from '../cli/command-context';
import { EXIT } from '../cli/exit-codes';
import type { ProbeOutput, ProbeRunner } from '../doctor/doctor-probes';

/** How long a CLI doctor ran gets between SIGTERM and SIGKILL at its bound (ms). */
const DOCTOR_KILL_GRACE_MS = 1_000;

/**
 * `bullswarm doctor [--json]`: for each pool, the CLI found (path, version, inside the connector's
 * checked range or not), signed in or not where the CLI can tell without a network call, the meter
 * source readable, and the last run's verdict (see `diagnosePools`). Every command it runs (a
 * `--version`, a sign-in status) is bounded by `BULLSWARM_DOCTOR_TIMEOUT_SEC` (default 15 s; Gemini CLI 0.61 needs about 3.5 s of CPU to print its version) and
 * runs in the pool's account environment, without the caller's agent markers. Exit 1 when a pool
 * cannot run (or there is none), 0 when every pool can.
 */
export async function doctorCommand(context: CommandContext, options: { json?: boolean }): Promise<void> {
  const { diagnosePools } = await import('../doctor/diagnose-pools');
  const { formatDoctorReport } = await import('../doctor/format-doctor');
  const { buildChildEnv, runGate } = await import('@bullswarm/dispatch');
  const report = await withRuntime(context, {}, async (runtime) => {
    const markers = [...new Set([...runtime.connectors.values()].flatMap((c) => c.callerEnv))];
    const runFor =
      (detail: PoolDetail, timeoutSec: number): ProbeRunner =>
      async (argv): Promise<ProbeOutput> => {
        const gate = await runGate({
          command: argv,
          cwd: runtime.home.home,
          timeoutSec,
          env: buildChildEnv(runtime.env, detail.accountEnv, markers),
          extendEnv: false,
          killGraceMs: DOCTOR_KILL_GRACE_MS,
        });
        const started = gate.exitCode !== null || gate.signal !== null || gate.timedOut;
        return {
          ok: gate.ok,
          exitCode: gate.exitCode,
          timedOut: gate.timedOut,
          output: gate.output,
          ...(started ? {} : { startError: gate.output.trim().split('\n').at(-1) ?? 'unknown' }),
        };
      };
    return diagnosePools(runtime, runFor);
  });
  if (options.json) printJson(context, report);
  else for (const line of formatDoctorReport(report, context.colors)) context.io.out(`${line}\n`);
  if (!report.ok) throw new CliExit(EXIT.failed, 'a pool cannot run');
}
