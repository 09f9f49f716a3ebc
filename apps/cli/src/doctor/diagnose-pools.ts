import type { BullswarmRuntime, PoolDetail, PoolView } from '@bullswarm/dispatch/routing';
import { formatTime } from '@bullswarm/pacing/internal';
import {
  checkSignIn,
  checkVersion,
  doctorTimeoutSec,
  type ProbeRunner,
  type SignInCheck,
  type VersionCheck,
} from './doctor-probes';

/** How a pool's meter source reads (what `pools` would show for it). */
export interface MeterCheck {
  /** The meter source type (`codex-rollout`, `claude-code`, `file`, `manual`, `none`…); null without a connector. */
  readonly source: string | null;
  /** A reading was had (live, from the cache or set by hand); false after a failed poll; null without a source or a reading yet. */
  readonly readable: boolean | null;
  /** `live`, `cache`, `manual`, `stale` or `unmetered`. */
  readonly status: string;
  /** When the reading was read (ISO-8601); null when none. */
  readonly readAt: string | null;
  /** The reader's message after a failed poll; null when none. */
  readonly error: string | null;
}

/** The last run recorded on a pool. */
export interface LastRun {
  /** When it ended (ISO-8601). */
  readonly endedAt: string;
  /** `ok`, `auth`, `quota`, `throttle`, `failed`, `stalled`, `empty`, `canceled`. */
  readonly outcome: string;
  readonly lane: string;
  readonly action: string;
  /** The attempt's one-line why, when the run kept a record (`bullswarm run`); null otherwise. */
  readonly why: string | null;
}

/** Everything doctor says about one pool (also its `--json` row). */
export interface PoolDiagnosis {
  readonly id: string;
  readonly poolLabel: string;
  readonly connector: string;
  readonly account: string;
  readonly enabled: boolean;
  /** `ok`, `warning` (it can run, something is worth a look) or `cannot-run`. */
  readonly status: 'ok' | 'warning' | 'cannot-run';
  readonly canRun: boolean;
  /** Why it cannot run (each one line); empty when it can. */
  readonly problems: readonly string[];
  /** What is worth a look although it can run. */
  readonly warnings: readonly string[];
  readonly cli: {
    readonly command: string | null;
    /** The file found; null when missing (or the connector does not say what it runs). */
    readonly path: string | null;
  } & VersionCheck;
  readonly signIn: SignInCheck;
  readonly meter: MeterCheck;
  readonly lastRun: LastRun | null;
}

/** What doctor found over the home. */
export interface DoctorReport {
  /** Every pool can run (and there is at least one). */
  readonly ok: boolean;
  /** The bound of each command doctor ran, seconds. */
  readonly timeoutSec: number;
  readonly pools: readonly PoolDiagnosis[];
}

/**
 * Checks every pool of the home, all at once: its CLI (found, its version inside the connector's
 * checked range), its sign-in (without a network call), its meter source (as `pools` reads it,
 * through the cache), and its last run. A pool **cannot run** when `pools` shows it unavailable
 * (connector or CLI missing) or its account is signed out; a version outside the range or
 * unknown, an unreadable meter and a disabled pool are warnings; an unknown sign-in is neither
 * (it is said, but there is nothing to fix).
 *
 * `runFor` returns the bounded command runner of one pool (its account environment).
 */
export async function diagnosePools(
  runtime: BullswarmRuntime,
  runFor: (detail: PoolDetail, timeoutSec: number) => ProbeRunner,
): Promise<DoctorReport> {
  const timeoutSec = doctorTimeoutSec(runtime.env);
  const { buildPoolSnapshots, buildPoolViews, listRunRecords } = await import('@bullswarm/dispatch/routing');
  const snapshots = await buildPoolSnapshots(runtime);
  const views = buildPoolViews(snapshots, { inflightPenaltyPct: runtime.state.config.inflightPenaltyPct });
  const records = listRunRecords(runtime.home.home, 50);
  const store = await runtime.requireStore();
  const pools = await Promise.all(
    views.map(async (view): Promise<PoolDiagnosis> => {
      const detail = snapshots.details.get(view.id)!;
      const connector = detail.connector;
      const run = runFor(detail, timeoutSec);
      const version: VersionCheck =
        connector === undefined || detail.cli === undefined
          ? { version: null, checked: connector?.cliVersions?.checked ?? null, inRange: null, problem: null }
          : await checkVersion(connector, detail.cli, run, timeoutSec);
      const signIn: SignInCheck =
        connector === undefined
          ? { state: 'unknown', evidence: `connector ${view.connector} is not installed` }
          : await checkSignIn(
              connector,
              detail.cli,
              {
                account: detail.account,
                accountEnv: detail.accountEnv,
                env: runtime.env,
                bullswarmHome: runtime.home.home,
                userHome: runtime.userHome,
              },
              run,
              timeoutSec,
            );
      const meter = meterCheck(view, detail);
      const lastRun = lastRunOf(view.id, (await store.runs.list({ poolId: view.id, limit: 1 }))[0], records);

      const problems: string[] = [];
      if (view.problem !== null) problems.push(view.problem);
      // A missing CLI or connector is the blocker to name; the sign-in row still says what it found.
      if (signIn.state === 'signed-out' && view.problem === null) {
        problems.push(`not signed in (${signIn.evidence})`);
      }
      const warnings: string[] = [];
      if (!view.enabled) warnings.push('disabled: routing never picks it (bullswarm pools enable)');
      if (version.inRange === false) {
        warnings.push(
          `${view.connector} CLI ${version.version} is outside the checked range ${version.checked}`,
        );
      }
      if (version.problem !== null && view.problem === null)
        warnings.push(`version unknown: ${version.problem}`);
      if (meter.readable === false) warnings.push(`meter unreadable: ${meter.error}`);
      const canRun = problems.length === 0;
      return {
        id: view.id,
        poolLabel: view.poolLabel,
        connector: view.connector,
        account: view.account,
        enabled: view.enabled,
        status: !canRun ? 'cannot-run' : warnings.length > 0 ? 'warning' : 'ok',
        canRun,
        problems,
        warnings,
        cli: { command: detail.cli?.command ?? null, path: detail.cli?.path ?? null, ...version },
        signIn,
        meter,
        lastRun,
      };
    }),
  );
  return { ok: pools.length > 0 && pools.every((pool) => pool.canRun), timeoutSec, pools };
}

function meterCheck(view: PoolView, detail: PoolDetail): MeterCheck {
  const source = detail.meterSource?.type ?? null;
  const status = view.meter.status;
  const error = view.meterErrorDetail ?? view.meterError;
  // No reading yet (a manual meter never set, a CLI not run yet) is not a failure to read.
  const readable =
    source === null || source === 'none'
      ? null
      : error !== null
        ? false
        : status === 'unmetered'
          ? null
          : true;
  return { source, readable, status, readAt: view.meter.readAt, error };
}

function lastRunOf(
  poolId: string,
  row: { endedAt: number; outcome: string; lane: string; action: string } | undefined,
  records: readonly { readonly attempts: readonly unknown[] }[],
): LastRun | null {
  if (row === undefined) return null;
  let why: string | null = null;
  for (const record of records) {
    const attempts = record.attempts as readonly { poolId?: unknown; why?: unknown; endedAt?: unknown }[];
    const attempt = [...attempts].reverse().find((a) => a.poolId === poolId);
    if (attempt === undefined) continue;
    // Only the record of this very attempt (its end matches the store's run) names its why.
    const ended = typeof attempt.endedAt === 'string' ? Date.parse(attempt.endedAt) : Number.NaN;
    if (Math.abs(ended - row.endedAt) < 1000 && typeof attempt.why === 'string') why = attempt.why;
    break;
  }
  return { endedAt: formatTime(row.endedAt), outcome: row.outcome, lane: row.lane, action: row.action, why };
}
