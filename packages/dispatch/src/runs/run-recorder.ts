import { join } from 'node:path';
import { createRedactor, type Redactor } from '@bullswarm/connectors/redact';
import { formatTime } from '@bullswarm/pacing/internal';
import type { DispatchEvent, DispatchResult } from '../dispatch/dispatch-types';
import { attemptJson, candidateJson, rejectionJson } from '../route/decision-json';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import { RUN_RECORD_FILE, type RunRecordFile, writeRunRecord } from './run-record';

/** Options of {@link startRunRecord}. */
export interface StartRunRecordOptions {
  readonly runId: string;
  readonly lane: string;
  readonly tier: string;
  /** Epoch ms. */
  readonly startedAt: number;
  /** `$BULLSWARM_HOME/runs/<runId>`. */
  readonly runDir: string;
  /** Told once when the record cannot be written (the run goes on: the record is for viewing). */
  readonly onWriteError?: (file: string, error: Error) => void;
  /**
   * What the record's strings pass through (`runtimeRedactor(runtime)`: the process's and every
   * pool's credential values); default the process environment's and the token shapes.
   */
  readonly redact?: Redactor;
}

/** Keeps one run's `run.json` up to date: at the start, at each attempt's start, at the end. */
export interface RunRecorder {
  /** Feed every dispatch event: an attempt's start names its pool, model and reason. */
  onEvent(event: DispatchEvent): void;
  /** The run ended: its verdict, attempts and last pick, at `endedAt` (epoch ms). */
  finish(result: DispatchResult, runtime: Pick<BullswarmRuntime, 'label'>, endedAt: number): void;
}

/**
 * Writes `runs/<runId>/run.json` (status `running`) now and returns the recorder that keeps it
 * current — the record the dashboard's Runs page reads, for `bullswarm run` and the `run` tool of
 * `bullswarm mcp` alike.
 */
export function startRunRecord(options: StartRunRecordOptions): RunRecorder {
  let warned = false;
  const redact = options.redact ?? createRedactor([process.env]);
  let record: RunRecordFile = {
    runId: options.runId,
    status: 'running',
    lane: options.lane,
    tier: options.tier,
    startedAt: formatTime(options.startedAt),
    endedAt: null,
    ok: null,
    kind: null,
    poolId: null,
    poolLabel: null,
    model: null,
    reason: null,
    why: null,
    backAt: null,
    attempts: [],
    runDir: options.runDir,
    candidates: [],
    rejected: [],
  };
  const save = (next: RunRecordFile): void => {
    record = next;
    try {
      writeRunRecord(record, redact);
    } catch (error) {
      if (!warned) options.onWriteError?.(join(options.runDir, RUN_RECORD_FILE), error as Error);
      warned = true;
    }
  };
  save(record);
  return {
    onEvent(event) {
      if (event.type !== 'attempt.started') return;
      save({
        ...record,
        poolId: event.poolId,
        poolLabel: event.poolLabel,
        model: event.model,
        reason: event.reason,
      });
    },
    finish(result, runtime, endedAt) {
      save({
        ...record,
        status: 'finished',
        endedAt: formatTime(endedAt),
        ok: result.ok,
        kind: result.kind,
        poolId: result.poolId,
        poolLabel: result.poolId === null ? null : runtime.label(result.poolId),
        model: result.model,
        reason: result.reason,
        why: result.why ?? null,
        backAt: result.backAt === undefined ? null : formatTime(result.backAt),
        attempts: result.attempts.map(attemptJson),
        candidates: result.decision.candidates.map(candidateJson),
        rejected: result.decision.rejected.map((r) => rejectionJson(r, runtime)),
      });
    },
  };
}
