import { randomUUID } from 'node:crypto';
import {
  type CandidateRow,
  type MeterWindow,
  type PoolMeter,
  type PoolSnapshot,
  type RouteDecision,
  type RouteTask,
  type RunSample,
  stallThresholdMinutes,
} from '@bullswarm/pacing';
import { BURST_BLOCK_PCT, DEFAULT_LANE_TIER, formatCompact, formatTime } from '@bullswarm/pacing/internal';
import type { InflightEntry } from '@bullswarm/store';
import type { AgentLaunchOptions } from '../attempt/agent-launch';
import { type AttemptResult, runAttempt } from '../attempt/run-attempt';
import { probeFreeModel } from '../probe/probe-free-model';
import { noPoolKind } from '../route/no-pool-kind';
import { pinnedUnusable, routeOverSnapshots, routeTask } from '../route/route-task';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import {
  buildPoolSnapshots,
  type PoolDetail,
  type PoolSnapshots,
  poolMeterRequest,
  withLedger,
} from '../snapshots/build-pool-snapshots';
import { abortableSleep } from './abortable-sleep';
import type {
  AttemptReport,
  DispatchEvent,
  DispatchOutcomeKind,
  DispatchRequest,
  DispatchResult,
  WatchdogSettings,
} from './dispatch-types';
import { decideFailure, formatWait, needsMeterRead } from './failure-consequence';
import { guardInFlight } from './interrupt-guard';
import { validateDispatchRequest } from './validate-request';
import { resolveWatchdogSettings } from './watchdog-settings';

/** A pool picked for an attempt, with what dispatch needs to run it. */
interface Chosen {
  readonly decision: RouteDecision;
  readonly snapshot: PoolSnapshot;
  readonly detail: PoolDetail;
  readonly candidate: CandidateRow;
  /** Every pool of the pick's snapshots (the credential group of an auth failure is found here). */
  readonly pools: readonly PoolSnapshot[];
}

/** The result of one pick: a pool, or the decision that found none. */
interface PoolPick {
  readonly decision: RouteDecision;
  readonly chosen?: Chosen;
  /** The caller's signal ended the pick before it found a pool. */
  readonly canceled?: true;
}

type ExcludedPool = NonNullable<RouteTask['excludedPools']>[number];

/**
 * How many rounds one pick may take beyond one per pool: a round ends with a pick, with no pool,
 * or with a failed probe that leaves one more pool out, so N pools need at most N + 1 rounds.
 */
export const MAX_PICK_ROUNDS_OVER_POOLS = 1;

/** The decision of a pick the caller canceled before it found a pool. */
function canceledDecision(runtime: BullswarmRuntime, task: RouteTask): RouteDecision {
  return {
    poolId: null,
    model: null,
    reason: task.pin === undefined ? 'canceled' : `pinned to ${runtime.label(task.pin.poolId)}: canceled`,
    candidates: [],
    rejected: [],
  };
}

/** A spent window of a meter (at 100% and not yet reset): the one with the latest known reset. */
function spentWindow(meter: PoolMeter, now: number): MeterWindow | undefined {
  let found: MeterWindow | undefined;
  for (const window of meter.windows) {
    if (window.usedPct < BURST_BLOCK_PCT) continue;
    if (window.resetsAt !== undefined && window.resetsAt <= now) continue;
    if (
      found === undefined ||
      window.resetsAt === undefined ||
      (found.resetsAt !== undefined && window.resetsAt > found.resetsAt)
    ) {
      found = window;
    }
  }
  return found;
}

function runOutcome(kind: AttemptResult['kind']): RunSample['outcome'] {
  switch (kind) {
    case 'ok':
    case 'quota':
    case 'throttle':
    case 'auth':
    case 'empty':
    case 'stalled':
    case 'canceled':
      return kind;
    default:
      return 'failed';
  }
}

/** `sim:a at its 5-hour limit until …; sim:b the caller` — each rejected pool with its reason. */
function rejectionList(runtime: BullswarmRuntime, decision: RouteDecision): string {
  const entries = decision.rejected
    .filter((rejection) => rejection.reason !== 'not the pinned pool')
    .map((rejection) => `${runtime.label(rejection.poolId)} ${rejection.reason}`);
  return entries.length > 0 ? entries.join('; ') : decision.reason;
}

/** The `fallback from <label> after … · ` prefix of a retry's reason line. */
function fallbackPrefix(label: string, attempt: AttemptResult): string {
  switch (attempt.kind) {
    case 'stalled':
      return `fallback from ${label} after stall ${attempt.stallSec ?? attempt.silentSec}s · `;
    case 'empty':
      return `fallback from ${label} after empty answer · `;
    case 'auth':
      return `fallback from ${label} after sign-in failure · `;
    default: {
      if (attempt.noNetwork) return `fallback from ${label} after no network · `;
      const how =
        attempt.signal !== null
          ? `signal ${attempt.signal}`
          : attempt.exitCode !== null
            ? `exit ${attempt.exitCode}`
            : 'no exit code';
      return `fallback from ${label} after crash (${how}) · `;
    }
  }
}

/**
 * Why `poolId` is no longer free for a throttle back-off (spent, or nearly spent), or undefined
 * when it is. Only its own snapshot is built: no other pool's meter is read for this.
 */
async function notFreeForBackoff(
  runtime: BullswarmRuntime,
  task: RouteTask,
  poolId: string,
): Promise<{ readonly reason: string; readonly backAt: number | undefined } | undefined> {
  const check = (
    await routeTask(
      runtime,
      { ...task, pin: { poolId, source: '--worker-pool' }, excludedPools: [] },
      { poolIds: [poolId] },
    )
  ).decision;
  if (check.poolId === null) {
    return {
      reason: check.rejected.find((r) => r.poolId === poolId)?.reason ?? check.reason,
      backAt: check.backAt,
    };
  }
  const row = check.candidates[0];
  if (!row?.draining) return undefined;
  return {
    reason: `nearly spent (forecast ${formatCompact(row.forecastPacingPct ?? 0)}%)${
      row.pacingResetsAt === null ? '' : ` until ${formatTime(row.pacingResetsAt)}`
    }`,
    backAt: row.pacingResetsAt ?? undefined,
  };
}

/**
 * The silence clock of one attempt, ms: `settings.silenceMs` (BULLSWARM_WORKER_SILENCE_SEC) when
 * set; else a metered pool's one hour, and a free model's p50 of its own non-stalled runs at
 * (pool, tier) once 3 are recorded (floor 5 min; pacing's `stallThresholdMinutes`).
 */
export function workerSilenceMs(input: {
  readonly settings: Pick<WatchdogSettings, 'silenceMs'>;
  readonly free: boolean;
  readonly pool: Pick<PoolSnapshot, 'id' | 'runs'>;
  readonly tier: string;
}): number {
  if (input.settings.silenceMs !== undefined) return input.settings.silenceMs;
  return (
    stallThresholdMinutes({
      free: input.free,
      runs: input.pool.runs,
      poolId: input.pool.id,
      tier: input.tier,
    }).minutes * 60_000
  );
}

/**
 * Dispatches one task: routes it over the live pools, probes a free model the tier names, spawns
 * the pool's CLI (see {@link runAttempt}), and applies the failure consequences of routing.md for
 * a workflow started by this version and for a single bullswarm run:
 *
 * - **usage limit** (`quota`; a limit notice, or the pool's meter showing a window full after a
 *   failed attempt): the attempt ends at once, `markUsageLimit` and a forced re-read of the
 *   pool's meter; nothing retries or moves. `backAt` = the reset when known.
 * - **throttle**: policy `record` (single run, the default there) records it, no retry. Policy
 *   `backoff` (workflow step, the default there) backs off on the same pool at most twice
 *   (20 s then 60 s, or the provider's named wait when ≤ 2 min) without spending a retry, then
 *   comes back; a named wait over 2 min comes back at once with `backAt` at its end; when the
 *   pool is no longer free for the back-off (spent, or nearly spent) it comes back instead of
 *   moving.
 * - **sign-in failure** (`auth`): the one retry goes outside the credential group — every pool of
 *   the group is added to `excludedPools` (`sign-in failed in credential group <g>`) for the rest
 *   of this task only. A pinned task has no such pool: no retry.
 * - **crash, empty answer, stall**: the one retry (`retryAttempts`, default 1) on another eligible
 *   pool, or the same pool when nothing else is; its reason starts `fallback from <label> after
 *   stall <n>s · ` (`after crash (exit 1)`, `after empty answer`, `after sign-in failure`).
 * - A promised retry that finds no free pool keeps the attempt's own kind; its why ends with
 *   `· no retry: <pool> <reason>; …`.
 * - No pool at the first pick: `quota`, `unavailable` or `no-eligible-pool` (see {@link noPoolKind})
 *   with the decision's reason as why and `backAt` the earliest known return.
 * - `timeoutSec` running out (`timeout`) and the caller's abort (`canceled`) are not retried.
 *
 * Every pick rebuilds the snapshots (live meters, the shared ledger); nothing benches a pool
 * between tasks. Each attempt is in the in-flight ledger from dispatch until it ends (released
 * on every ending, also on SIGINT/SIGTERM of this process), and appends a run record. A real pick
 * reads the meters first, outside any lock, then reads the ledger, routes and records its entry in
 * one store write transaction (`BEGIN IMMEDIATE`), so two bullswarm processes picking at once
 * always see each other's load; a free-model probe runs after that, holding the entry (released
 * when the probe leaves the pool out).
 *
 * `result.poolId`, `model`, `reason` and `decision` describe the pick of the last attempt that
 * ran (a failed retry pick is described in `why`); with no attempt, the first pick's decision.
 *
 * @throws DispatchError for a malformed request or a pin naming an unknown pool.
 */
export async function dispatchTask(
  runtime: BullswarmRuntime,
  request: DispatchRequest,
  settings: Partial<WatchdogSettings> = {},
): Promise<DispatchResult> {
  const pinnedPoolId = validateDispatchRequest(runtime, request);
  const watchdog: WatchdogSettings = { ...resolveWatchdogSettings(runtime.env), ...settings };
  const store = runtime.requireStore();
  const meters = runtime.requireMeters();
  const clock = runtime.clock;
  const tier = request.tier ?? DEFAULT_LANE_TIER[request.lane];
  const policy = request.throttlePolicy ?? (request.kind === 'single-run' ? 'record' : 'backoff');
  const emit = (event: DispatchEvent) => request.onEvent?.(event);
  const callerMarkers = [...new Set([...runtime.connectors.values()].flatMap((c) => c.callerEnv))];
  /** Who an agent on `poolId` runs as, for its probe and its attempts alike. */
  const launchOptions = (poolId: string, detail: PoolDetail): AgentLaunchOptions => ({
    connector: detail.connector!,
    poolId,
    account: detail.account,
    accountEnv: detail.accountEnv,
    bullswarmHome: runtime.home.home,
    userHome: runtime.userHome,
    env: runtime.env,
    callerMarkers,
    ...(request.extraEnv === undefined ? {} : { extraEnv: request.extraEnv }),
    ...(detail.pool.command === undefined ? {} : { command: detail.pool.command }),
  });
  const baseTask: RouteTask = {
    lane: request.lane,
    tier,
    kind: request.kind,
    ...(request.capabilities === undefined ? {} : { capabilities: request.capabilities }),
    ...(request.route === undefined ? {} : { route: request.route }),
    ...(pinnedPoolId === undefined
      ? {}
      : { pin: { poolId: pinnedPoolId, source: request.pin?.source ?? '--worker-pool' } }),
  };
  const excluded: ExcludedPool[] = [...(request.excludedPools ?? [])];
  const exclude = (entry: ExcludedPool) => {
    if (!excluded.some((e) => e.poolId === entry.poolId)) excluded.push(entry);
  };
  let retriesLeft = request.retryAttempts ?? 1;
  let minAttempt = (request.previousAttempts ?? 0) + 1;
  const attempts: AttemptReport[] = [];
  let throttleBackoffs = 0;

  /** Pools an attempt of this task failed on (crash, empty answer, stall), oldest first. */
  const failedPools: string[] = [];

  /**
   * One pick over fresh snapshots. `avoid` (the pools that failed in this task, last one last) is
   * left out while another pool can take the task (a retry): every failed pool first, then only the
   * last one, then none (the same pool when it is the only one). A free model the tier names is
   * probed first, and a failed probe leaves its pool out (`probe: <reason>`) and routing continues.
   */
  // The pick's ledger entry from the moment it is recorded until the attempt's own guard releases
  // it: an error in between (an onEvent callback that throws, a failing probe) must not leave it in
  // the ledger for as long as this process lives.
  let unguarded: InflightEntry | undefined;
  const releaseUnguarded = () => {
    if (unguarded === undefined) return;
    store.ledger.release(unguarded.id);
    unguarded = undefined;
  };

  const pick = async (avoid: readonly string[] = []): Promise<PoolPick> => {
    // The meters are read here, outside any lock: a slow meter never holds the ledger.
    const built = await buildPoolSnapshots(runtime);
    // Each round that does not return leaves one more pool out (its probe failed), so a pick over
    // N pools ends within N + 1 rounds; the bound makes that explicit (see MAX_PICK_ROUNDS_OVER_POOLS).
    const maxRounds = built.pools.length + MAX_PICK_ROUNDS_OVER_POOLS;
    for (let round = 1; ; round++) {
      if (request.signal?.aborted) return { decision: canceledDecision(runtime, baseTask), canceled: true };
      if (round > maxRounds) {
        const why = `no pick after ${maxRounds - 1} failed probes over ${built.pools.length} pools`;
        return { decision: { poolId: null, model: null, reason: why, candidates: [], rejected: [] } };
      }
      const task: RouteTask = excluded.length > 0 ? { ...baseTask, excludedPools: [...excluded] } : baseTask;
      const decide = (snapshots: PoolSnapshots): RouteDecision => {
        const last = avoid.at(-1);
        const tries =
          avoid.length > 1 && last !== undefined ? [new Set(avoid), new Set([last])] : [new Set(avoid)];
        for (const left of tries) {
          if (![...left].some((id) => snapshots.details.has(id))) continue;
          const others: PoolSnapshots = {
            now: snapshots.now,
            pools: snapshots.pools.filter((pool) => !left.has(pool.id)),
            details: new Map([...snapshots.details].filter(([id]) => !left.has(id))),
          };
          const decision = routeOverSnapshots(runtime, task, others).decision;
          if (decision.poolId !== null) return decision;
        }
        return routeOverSnapshots(runtime, task, snapshots).decision;
      };
      // A real pick is one cross-process critical section: read the in-flight ledger, route, record
      // the pick (a `BEGIN IMMEDIATE` write transaction), so two bullswarm processes picking at the
      // same moment always see each other's load. A dry run records nothing and takes no lock.
      let snapshots = built;
      let decision: RouteDecision;
      let entry: InflightEntry | undefined;
      if (request.dryRun) {
        decision = decide(snapshots);
      } else {
        ({ snapshots, decision, entry } = store.transaction(() => {
          const current = withLedger(built, store.ledger.list());
          const decided = decide(current);
          if (decided.poolId === null) return { snapshots: current, decision: decided, entry: undefined };
          return {
            snapshots: current,
            decision: decided,
            entry: store.ledger.record({
              poolId: decided.poolId,
              action: request.action,
              lane: request.lane,
              tier,
              startedAt: clock(),
              expectedMinutes: decided.candidates[0]!.expectedMinutes,
              pid: process.pid,
            }),
          };
        }));
        unguarded = entry;
      }
      if (decision.poolId === null) return { decision };
      const poolId = decision.poolId;
      const snapshot = snapshots.pools.find((pool) => pool.id === poolId)!;
      const detail = snapshots.details.get(poolId)!;
      const candidate = decision.candidates[0]!;
      const tierModel = snapshot.models[tier];
      if (
        !request.dryRun &&
        candidate.free &&
        tierModel?.explicit === true &&
        tierModel.model !== undefined &&
        detail.connector?.probe === true
      ) {
        const probe = await probeFreeModel({
          ...launchOptions(poolId, detail),
          store,
          model: tierModel.model,
          cwd: request.cwd,
          timeoutMs: watchdog.probeTimeoutMs,
          cacheMs: watchdog.probeCacheMs,
          killGraceMs: watchdog.killGraceMs,
          clock,
          ...(request.signal === undefined ? {} : { signal: request.signal }),
        });
        emit({
          type: 'probe.finished',
          action: request.action,
          at: clock(),
          poolId,
          model: tierModel.model,
          ok: probe.ok,
          cached: probe.cached,
          ...(probe.reason === undefined ? {} : { reason: probe.reason }),
        });
        if (!probe.ok) {
          releaseUnguarded();
          const probeReason = `probe: ${probe.reason ?? 'failed'}`;
          // A pinned pool has no other pool to go to: the task comes back at once with the reason
          // (routing a pin again would pick the same pool and read the same failed probe).
          if (baseTask.pin !== undefined) {
            return { decision: pinnedUnusable(runtime, snapshots, baseTask, probeReason) };
          }
          exclude({ poolId, reason: probeReason });
          continue;
        }
      }
      return {
        decision,
        chosen: {
          decision,
          snapshot,
          detail,
          candidate,
          pools: snapshots.pools,
        },
      };
    }
  };

  const routeDecided = (decision: RouteDecision, reason: string) =>
    emit({
      type: 'route.decided',
      action: request.action,
      attempt: minAttempt,
      at: clock(),
      poolId: decision.poolId,
      reason,
      dryRun: request.dryRun === true,
    });

  const result = (
    fields: Omit<DispatchResult, 'attempts' | 'throttleBackoffs' | 'ok'> & { readonly ok?: boolean },
  ): DispatchResult => ({
    ok: fields.ok ?? fields.kind === 'ok',
    ...fields,
    attempts,
    throttleBackoffs,
  });

  try {
    // ---- the first pick ------------------------------------------------------------------------
    const first = await pick();
    routeDecided(first.decision, first.decision.reason);
    if (first.canceled) {
      return result({
        kind: 'canceled',
        poolId: null,
        model: null,
        reason: first.decision.reason,
        why: 'canceled',
        decision: first.decision,
      });
    }
    if (!first.chosen) {
      return result({
        ok: false,
        kind: noPoolKind(first.decision),
        poolId: null,
        model: null,
        reason: first.decision.reason,
        why: first.decision.reason,
        ...(first.decision.backAt === undefined ? {} : { backAt: first.decision.backAt }),
        decision: first.decision,
      });
    }
    if (request.dryRun) {
      return result({
        kind: 'ok',
        poolId: first.chosen.decision.poolId,
        model: first.chosen.decision.model,
        reason: first.decision.reason,
        decision: first.decision,
      });
    }

    let chosen: Chosen = first.chosen;
    let reason = first.decision.reason;
    for (;;) {
      const { snapshot, detail, candidate } = chosen;
      const poolId = snapshot.id;
      const label = runtime.label(poolId);
      const model = chosen.decision.model;
      const finish = (
        attempt: AttemptResult,
        extra: { willRetry: boolean; why?: string; resetsAt?: number; waitMs?: number },
      ) => {
        const report: AttemptReport = {
          attempt: attempt.attempt,
          poolId,
          poolLabel: label,
          model,
          reason,
          outputFile: attempt.outputFile,
          startedAt: attempt.startedAt,
          endedAt: attempt.endedAt,
          kind: attempt.kind,
          why: extra.why ?? attempt.why,
          exitCode: attempt.exitCode,
          signal: attempt.signal,
          stalled: attempt.stalled,
          partialOutput: attempt.partialOutput,
          silentSec: attempt.silentSec,
          willRetry: extra.willRetry,
          ...(extra.resetsAt === undefined ? {} : { resetsAt: extra.resetsAt }),
          ...(extra.waitMs === undefined ? {} : { waitMs: extra.waitMs }),
        };
        attempts.push(report);
        emit({ type: 'attempt.finished', action: request.action, at: clock(), ...report });
      };
      /** The task ends on this pick without an answer. */
      const ended = (kind: DispatchOutcomeKind, why: string, backAt?: number): DispatchResult =>
        result({
          kind,
          poolId,
          model,
          reason,
          why,
          ...(backAt === undefined ? {} : { backAt }),
          decision: chosen.decision,
        });

      if (request.signal?.aborted) {
        releaseUnguarded();
        return ended('canceled', 'canceled');
      }

      // ---- the attempt ---------------------------------------------------------------------------
      const silenceMs = workerSilenceMs({ settings: watchdog, free: candidate.free, pool: snapshot, tier });
      const noProgressMs = request.lane === 'build' || request.lane === 'chore' ? watchdog.noProgressMs : 0;
      // The pick's own ledger entry (`unguarded`) is used by its first attempt; a back-off on the
      // same pool (no new pick) records anew.
      const entry =
        unguarded ??
        store.ledger.record({
          poolId,
          action: request.action,
          lane: request.lane,
          tier,
          startedAt: clock(),
          expectedMinutes: candidate.expectedMinutes,
          pid: process.pid,
        });
      unguarded = undefined;
      const guard = guardInFlight(() => store.ledger.release(entry.id), watchdog.killGraceMs);
      let attempt: AttemptResult;
      try {
        attempt = await runAttempt({
          ...launchOptions(poolId, detail),
          prompt: request.prompt,
          model,
          cwd: request.cwd,
          addDirs: request.addDirs ?? [],
          action: request.action,
          outputDir: request.outputDir,
          minAttempt,
          silenceMs,
          noProgressMs,
          networkWaitMs: watchdog.networkWaitMs,
          killGraceMs: watchdog.killGraceMs,
          ...(request.timeoutSec === undefined ? {} : { timeoutMs: request.timeoutSec * 1000 }),
          ...(request.signal === undefined ? {} : { signal: request.signal }),
          clock,
          onStarted: (started) => {
            if (started.pid !== undefined) {
              store.ledger.setWorkerPid(entry.id, started.pid);
              guard.setWorkerPid(started.pid);
            }
            emit({
              type: 'attempt.started',
              action: request.action,
              attempt: started.attempt,
              at: clock(),
              poolId,
              poolLabel: label,
              model,
              reason,
              outputFile: started.outputFile,
              pid: started.pid,
            });
          },
        });
      } finally {
        store.ledger.release(entry.id);
        guard.done();
      }
      const interruptedBy = guard.interruptedBy;
      if (interruptedBy !== undefined && attempt.kind !== 'ok') {
        // This process got SIGINT/SIGTERM and ended the worker; the program chose to keep running.
        attempt = { ...attempt, kind: 'canceled', why: `interrupted by ${interruptedBy}` };
      }
      minAttempt = attempt.attempt + 1;
      store.runs.append({
        id: randomUUID(),
        poolId,
        tier,
        lane: request.lane,
        action: request.action,
        startedAt: attempt.startedAt,
        endedAt: attempt.endedAt,
        stalled: attempt.stalled,
        outcome: runOutcome(attempt.kind),
        workerMinutes: attempt.workerMs / 60_000,
        ...(model === null ? {} : { model }),
        ...(attempt.kind === 'ok' ? {} : { failureKind: attempt.kind }),
      });

      // ---- the consequences (decideFailure; this loop only carries them out) -------------------
      const meterRequest = poolMeterRequest(runtime, detail, true);
      const meterFull = needsMeterRead(attempt.kind)
        ? spentWindow(await meters.readPoolMeter(meterRequest), clock())
        : undefined;
      const decision = decideFailure(attempt, {
        label,
        now: clock(),
        policy,
        pinned: pinnedPoolId !== undefined,
        retriesLeft,
        throttleBackoffs,
        throttleWaitsMs: watchdog.throttleWaitsMs,
        throttleMaxNamedWaitMs: watchdog.throttleMaxNamedWaitMs,
        credentialGroup: snapshot.credentialGroup,
        ...(meterFull === undefined ? {} : { meterFull }),
      });
      if (decision.action === 'succeed') {
        finish(attempt, { willRetry: false });
        return result({
          kind: 'ok',
          poolId,
          model,
          reason,
          answer: attempt.answer,
          decision: chosen.decision,
        });
      }
      if (decision.action === 'end') {
        finish(attempt, {
          willRetry: false,
          why: decision.why,
          ...(decision.backAt === undefined ? {} : { resetsAt: decision.backAt }),
          ...(decision.waitMs === undefined ? {} : { waitMs: decision.waitMs }),
        });
        return ended(decision.kind, decision.why, decision.backAt);
      }
      if (decision.action === 'usage-limit') {
        const mark = meters.markUsageLimit(poolId, {
          ...(attempt.resetsAt === undefined ? {} : { resetsAt: attempt.resetsAt }),
        });
        const meter = await meters.readPoolMeter(meterRequest);
        const backAt = attempt.resetsAt ?? spentWindow(meter, clock())?.resetsAt ?? mark.countsFullUntil;
        finish(attempt, { willRetry: false, ...(backAt === undefined ? {} : { resetsAt: backAt }) });
        return ended('quota', attempt.why, backAt);
      }
      if (decision.action === 'back-off') {
        const notFree = await notFreeForBackoff(runtime, baseTask, poolId);
        if (notFree !== undefined) {
          const why = `${attempt.why} · ${label} is no longer free for a back-off: ${notFree.reason}`;
          finish(attempt, {
            willRetry: false,
            why,
            ...(notFree.backAt === undefined ? {} : { resetsAt: notFree.backAt }),
          });
          return ended('throttle', why, notFree.backAt);
        }
        const wait = decision.waitMs;
        throttleBackoffs += 1;
        finish(attempt, { willRetry: true, waitMs: wait });
        emit({
          type: 'throttle.backoff',
          action: request.action,
          at: clock(),
          poolId,
          waitMs: wait,
          backoff: throttleBackoffs,
        });
        await abortableSleep(wait, request.signal);
        if (request.signal?.aborted) return ended('canceled', 'canceled');
        reason = `back-off ${throttleBackoffs} of ${watchdog.throttleWaitsMs.length} on ${label} after throttle (waited ${formatWait(wait)}) · ${chosen.decision.reason}`;
        routeDecided(chosen.decision, reason);
        continue;
      }

      // retry-elsewhere: the one automatic retry.
      retriesLeft -= 1;
      let next: PoolPick;
      if (decision.avoid === 'credential-group') {
        const group = snapshot.credentialGroup;
        const groupReason = `sign-in failed in credential group ${group}`;
        for (const pool of chosen.pools) {
          if (pool.credentialGroup === group) exclude({ poolId: pool.id, reason: groupReason });
        }
        next = await pick();
      } else {
        failedPools.push(poolId);
        next = await pick(failedPools);
      }
      if (next.canceled) {
        finish(attempt, { willRetry: false });
        return ended('canceled', 'canceled');
      }
      if (!next.chosen) {
        const why = `${attempt.why} · no retry: ${rejectionList(runtime, next.decision)}`;
        finish(attempt, {
          willRetry: false,
          why,
          ...(next.decision.backAt === undefined ? {} : { resetsAt: next.decision.backAt }),
        });
        routeDecided(next.decision, next.decision.reason);
        return ended(attempt.kind, why, next.decision.backAt);
      }
      finish(attempt, { willRetry: true });
      reason = fallbackPrefix(label, attempt) + next.decision.reason;
      chosen = next.chosen;
      routeDecided(next.decision, reason);
    }
  } catch (error) {
    releaseUnguarded();
    throw error;
  }
}
