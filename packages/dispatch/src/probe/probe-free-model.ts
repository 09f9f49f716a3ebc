import type { ConnectorV1ParsedOutput } from '@bullswarm/connectors';
import type { AsyncProbeCache } from '@bullswarm/store';
import { type AgentLaunchOptions, buildAgentLaunch } from '../attempt/agent-launch';
import { runAgentProcess } from '../attempt/run-agent-process';

/** The probe's prompt (docs/routing.md, "Free-model liveness probe"). */
export const PROBE_PROMPT = 'Reply with exactly one word: PONG';

/** Options of {@link probeFreeModel}. */
export interface ProbeFreeModelOptions extends AgentLaunchOptions {
  /** Where results are cached per pool and model. */
  readonly store: { readonly probes: AsyncProbeCache };
  /** The free model the tier names explicitly. */
  readonly model: string;
  /** Where the probe runs (the task's working directory). */
  readonly cwd: string;
  /** How long the probe may run, ms (default 60 000); then it counts as `timeout`. */
  readonly timeoutMs?: number;
  /** How long a result is reused, ms (default 15 min). */
  readonly cacheMs?: number;
  readonly killGraceMs?: number;
  /** The clock of `checkedAt` and the cache age (default `Date.now`). */
  readonly clock?: () => number;
  readonly signal?: AbortSignal;
}

/** The probe's verdict. */
export interface ProbeOutcome {
  readonly poolId: string;
  readonly model: string;
  readonly ok: boolean;
  /** Why it failed: `404`, `provider error: …`, `timeout`. */
  readonly reason?: string;
  /** The result came from the cache (no process was spawned). */
  readonly cached: boolean;
  readonly checkedAt: number;
}

const REASON_MAX = 200;

function clip(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > REASON_MAX ? `${single.slice(0, REASON_MAX - 1)}…` : single;
}

/** A model-not-found answer: a 404 status on a notice, or the provider's not-found wording. */
function isNotFound(parsed: ConnectorV1ParsedOutput, stderr: string): boolean {
  if (parsed.notices.some((notice) => notice.status === 404)) return true;
  const texts = [...parsed.notices.map((notice) => `${notice.code ?? ''} ${notice.text}`), stderr];
  return texts.some((text) =>
    /\b404\b|model_not_found|model not found|not_found_error|(?:may|does) not exist/i.test(text),
  );
}

/**
 * The free-model liveness probe: the one-word PONG prompt through the pool's own CLI with the
 * model, cached per pool and model (`store.probes`) for `cacheMs`. A real process launched like
 * an attempt (`buildAgentLaunch`: own process group, account env, `BULLSWARM_POOL`,
 * `BULLSWARM_HOME`), but not an attempt: nothing is written to the attempt
 * files and no attempt number is used.
 *
 * Verdicts: an answer (the connector classifies `ok`) → ok, whatever its wording (the probe
 * checks liveness, not obedience); a 404 / model-not-found → `404`; no end within `timeoutMs` →
 * `timeout`; anything else → `provider error: <the connector's message>`. Failures are cached
 * like successes, so a dead model is not probed again for 15 minutes.
 */
export async function probeFreeModel(options: ProbeFreeModelOptions): Promise<ProbeOutcome> {
  const clock = options.clock ?? Date.now;
  const cacheMs = options.cacheMs ?? 15 * 60_000;
  const now = clock();
  const cached = await options.store.probes.get(options.poolId, options.model);
  if (cached !== undefined && now - cached.checkedAt >= 0 && now - cached.checkedAt < cacheMs) {
    return {
      poolId: options.poolId,
      model: options.model,
      ok: cached.ok,
      ...(cached.reason === undefined ? {} : { reason: cached.reason }),
      cached: true,
      checkedAt: cached.checkedAt,
    };
  }

  let reason: string | undefined;
  try {
    const { invocation, env } = buildAgentLaunch(options, {
      prompt: PROBE_PROMPT,
      model: options.model,
      cwd: options.cwd,
      addDirs: [],
    });
    const run = await runAgentProcess({
      connector: options.connector,
      invocation,
      env,
      timeoutMs: options.timeoutMs ?? 60_000,
      killGraceMs: options.killGraceMs ?? 5_000,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      stopOnQuotaNotice: true,
      clock,
    });
    if (run.stopReason === 'timeout') reason = 'timeout';
    else if (run.stopReason === 'canceled') reason = 'canceled';
    else if (run.spawnError !== undefined) reason = `provider error: ${clip(run.spawnError)}`;
    else {
      const outcome = options.connector.classifyOutcome({
        exitCode: run.exitCode,
        signal: run.signal,
        parsed: run.parsed,
        stderr: run.stderr,
        now: clock(),
      });
      if (outcome.kind !== 'ok') {
        reason = isNotFound(run.parsed, run.stderr) ? '404' : `provider error: ${clip(outcome.message)}`;
      }
    }
  } catch (error) {
    reason = `provider error: ${clip((error as Error).message)}`;
  }

  const checkedAt = clock();
  const ok = reason === undefined;
  // A canceled probe says nothing about the model: it is not cached.
  if (reason !== 'canceled') {
    await options.store.probes.set({
      poolId: options.poolId,
      model: options.model,
      ok,
      ...(reason === undefined ? {} : { reason }),
      checkedAt,
    });
  }
  return {
    poolId: options.poolId,
    model: options.model,
    ok,
    ...(reason === undefined ? {} : { reason }),
    cached: false,
    checkedAt,
  };
}
