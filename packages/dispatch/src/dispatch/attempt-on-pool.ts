import { randomUUID } from 'node:crypto';
import type { RunSample } from '@bullswarm/pacing';
import type { InflightEntry } from '@bullswarm/store';
import { type AttemptResult, runAttempt } from '../attempt/run-attempt';
import { guardInFlight } from './interrupt-guard';
import type { Chosen } from './pool-picker';
import type { TaskSetup } from './task-setup';
import { workerSilenceMs } from './worker-silence';

/** One attempt to run on a picked pool. */
export interface PoolAttempt {
  readonly chosen: Chosen;
  /** The reason line of this attempt (with any `fallback from …` or `back-off …` prefix). */
  readonly reason: string;
  /** The attempt number to start from (the attempt files of earlier attempts are kept). */
  readonly minAttempt: number;
  /** The pick's own ledger entry (its first attempt); without one, the attempt records its own. */
  readonly entry: InflightEntry | undefined;
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

/**
 * Runs one attempt on the picked pool (see {@link runAttempt}) with its watchdog clocks: the
 * attempt is in the in-flight ledger until it ends (released on every ending, also on SIGINT or
 * SIGTERM of this process, which ends it as `canceled`, `interrupted by <signal>`), and appends
 * its run record (pacing's history of the pool).
 */
export async function attemptOnPool(setup: TaskSetup, on: PoolAttempt): Promise<AttemptResult> {
  const { request, store, clock, tier, watchdog } = setup;
  const { snapshot, detail, candidate } = on.chosen;
  const poolId = snapshot.id;
  const model = on.chosen.decision.model;
  const silenceMs = workerSilenceMs({ settings: watchdog, free: candidate.free, pool: snapshot, tier });
  const noProgressMs = request.lane === 'build' || request.lane === 'chore' ? watchdog.noProgressMs : 0;
  // The pick's own ledger entry is used by its first attempt; a back-off on the same pool (no new
  // pick) records anew.
  const entry =
    on.entry ??
    (await store.ledger.record({
      poolId,
      action: request.action,
      lane: request.lane,
      tier,
      startedAt: clock(),
      expectedMinutes: candidate.expectedMinutes,
      pid: process.pid,
    }));
  const guard = guardInFlight(() => store.ledger.release(entry.id), watchdog.killGraceMs);
  // The worker's pid goes into the entry as soon as it is spawned (the proof a reaper needs to end
  // an orphaned worker); waited for before the entry is released.
  let workerRecorded: Promise<void> = Promise.resolve();
  let attempt: AttemptResult;
  try {
    attempt = await runAttempt({
      ...setup.launchOptions(poolId, detail),
      prompt: request.prompt,
      model,
      cwd: request.cwd,
      addDirs: request.addDirs ?? [],
      action: request.action,
      outputDir: request.outputDir,
      minAttempt: on.minAttempt,
      silenceMs,
      noProgressMs,
      networkWaitMs: watchdog.networkWaitMs,
      killGraceMs: watchdog.killGraceMs,
      ...(request.timeoutSec === undefined ? {} : { timeoutMs: request.timeoutSec * 1000 }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      clock,
      onStarted: (started) => {
        if (started.pid !== undefined) {
          const workerPid = started.pid;
          // A failed write loses only the orphan proof (the entry is still released below).
          workerRecorded = store.ledger.setWorkerPid(entry.id, workerPid).catch(() => {});
          guard.setWorkerPid(workerPid);
        }
        setup.emit({
          type: 'attempt.started',
          action: request.action,
          attempt: started.attempt,
          at: clock(),
          poolId,
          poolLabel: setup.runtime.label(poolId),
          model,
          reason: on.reason,
          outputFile: started.outputFile,
          pid: started.pid,
        });
      },
    });
  } finally {
    try {
      await workerRecorded;
      await store.ledger.release(entry.id);
    } finally {
      guard.done();
    }
  }
  const interruptedBy = guard.interruptedBy;
  if (interruptedBy !== undefined && attempt.kind !== 'ok') {
    // This process got SIGINT/SIGTERM and ended the worker; the program chose to keep running.
    attempt = { ...attempt, kind: 'canceled', why: `interrupted by ${interruptedBy}` };
  }
  await store.runs.append({
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
  return attempt;
}
