import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { listRunRecords, type RunRecordFile, readRunRecord } from '@bullswarm/dispatch/routing';
import { formatTime } from '@bullswarm/pacing/internal';
import type { DashboardSource } from './dashboard-source';

/** How many runs the Runs page lists. */
export const RUNS_LISTED = 50;

/** How many recorded attempts (every dispatch, workflow steps too) the Runs page lists. */
export const ATTEMPTS_LISTED = 50;

/** The most of one attempt file the dashboard sends (its end: an answer is at the end). */
export const TRANSCRIPT_MAX_BYTES = 256 * 1024;

/** One recorded attempt of the store's run log, as the Runs page lists it. */
export interface AttemptRow {
  readonly id: string;
  readonly poolId: string;
  readonly poolLabel: string;
  readonly lane: string;
  readonly tier: string;
  readonly action: string;
  readonly outcome: string;
  readonly failureKind: string | null;
  readonly model: string | null;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly durationMs: number;
}

/** `GET /api/runs`: the newest `bullswarm run` records and the newest attempts of the run log. */
export async function runsJson(
  source: DashboardSource,
): Promise<{ readonly runs: RunRecordFile[]; readonly attempts: AttemptRow[] }> {
  const runtime = await source.current();
  const runs = listRunRecords(source.home, RUNS_LISTED);
  const store = runtime.store;
  const attempts = ((await store?.runs.list({ limit: ATTEMPTS_LISTED })) ?? []).map((run) => ({
    id: run.id,
    poolId: run.poolId,
    poolLabel: runtime.label(run.poolId),
    lane: run.lane,
    tier: run.tier,
    action: run.action,
    outcome: run.outcome,
    failureKind: run.failureKind ?? null,
    model: run.model ?? null,
    startedAt: formatTime(run.startedAt),
    endedAt: formatTime(run.endedAt),
    durationMs: run.endedAt - run.startedAt,
  }));
  return { runs, attempts };
}

/** The end of a file, at most `max` bytes (the whole file when smaller); '' when missing. */
function readTail(path: string, max: number): { readonly text: string; readonly truncated: boolean } {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return { text: '', truncated: false };
  }
  const length = Math.min(size, max);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  return { text: buffer.toString('utf8'), truncated: size > max };
}

/** One attempt's transcript: its stdout (the agent's output) and stderr. */
export interface Transcript {
  readonly attempt: number;
  readonly outputFile: string;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
}

/**
 * `GET /api/runs/:runId`: the run's record and each attempt's transcript. Only files inside the
 * run's own directory are read (an attempt naming another path is shown without a transcript).
 */
export async function runDetailJson(
  source: DashboardSource,
  runId: string,
): Promise<{ readonly run: RunRecordFile; readonly transcripts: Transcript[] } | undefined> {
  const run = readRunRecord(source.home, runId);
  if (run === undefined) return undefined;
  const runDir = resolve(run.runDir);
  const transcripts: Transcript[] = [];
  for (const attempt of run.attempts as { attempt?: number; outputFile?: string }[]) {
    if (typeof attempt.outputFile !== 'string') continue;
    const file = resolve(attempt.outputFile);
    const inside = relative(runDir, file);
    if (inside.startsWith('..') || inside.includes('/') || inside === '') continue;
    const stdout = readTail(file, TRANSCRIPT_MAX_BYTES);
    const stderr = readTail(`${file}.stderr`, TRANSCRIPT_MAX_BYTES);
    transcripts.push({
      attempt: attempt.attempt ?? transcripts.length + 1,
      outputFile: file,
      stdout: stdout.text,
      stderr: stderr.text,
      truncated: stdout.truncated || stderr.truncated,
    });
  }
  return { run, transcripts };
}
