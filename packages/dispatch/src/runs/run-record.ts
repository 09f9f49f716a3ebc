import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@bullswarm/connectors/internal';
import { createRedactor, type Redactor } from '@bullswarm/connectors/redact';

/** The file name of a run's record inside its run directory (`$BULLSWARM_HOME/runs/<runId>/`). */
export const RUN_RECORD_FILE = 'run.json';

/** A `bullswarm run` run id: `run-<yyyymmdd-hhmmss>-<6 hex>`. */
export const RUN_RECORD_ID_PATTERN = /^run-\d{8}-\d{6}-[0-9a-f]{6}$/;

/**
 * What `bullswarm run` keeps of one run in `runs/<runId>/run.json`: the fields of `run --json`
 * (without the answer, which is in the attempt files beside it) plus the lane, the status and the
 * start and end. Written when the run starts, at each attempt's start and when it ends, so a
 * reader (the dashboard) sees a run in flight. Times are ISO-8601.
 */
export interface RunRecordFile {
  readonly runId: string;
  readonly status: 'running' | 'finished';
  readonly lane: string;
  readonly tier: string;
  readonly startedAt: string;
  readonly endedAt: string | null;
  /** Null while running. */
  readonly ok: boolean | null;
  /** The outcome kind (`ok`, `quota`, `stalled`, …); null while running. */
  readonly kind: string | null;
  readonly poolId: string | null;
  readonly poolLabel: string | null;
  readonly model: string | null;
  /** The route reason line of the last pick. */
  readonly reason: string | null;
  readonly why: string | null;
  readonly backAt: string | null;
  /** The attempts as `run --json` prints them. */
  readonly attempts: readonly unknown[];
  readonly runDir: string;
  readonly candidates: readonly unknown[];
  readonly rejected: readonly unknown[];
}

/** `$BULLSWARM_HOME/runs`: one directory per `bullswarm run`. */
export function runsDirOf(home: string): string {
  return join(home, 'runs');
}

/**
 * Writes a run's record atomically (temp file, fsync, rename), creating its run directory (0700).
 * Every string passes through `redact` (an agent's stderr line in `why` may carry a token).
 */
export function writeRunRecord(
  record: RunRecordFile,
  redact: Redactor = createRedactor([process.env]),
): void {
  mkdirSync(record.runDir, { recursive: true, mode: 0o700 });
  writeFileAtomic(join(record.runDir, RUN_RECORD_FILE), `${JSON.stringify(redact.value(record), null, 2)}\n`);
}

/** Reads one run's record; undefined when the run has none (or it is not valid JSON). */
export function readRunRecord(home: string, runId: string): RunRecordFile | undefined {
  if (!RUN_RECORD_ID_PATTERN.test(runId)) return undefined;
  try {
    return JSON.parse(readFileSync(join(runsDirOf(home), runId, RUN_RECORD_FILE), 'utf8')) as RunRecordFile;
  } catch {
    return undefined;
  }
}

/**
 * The newest `limit` run records of a home, newest first (run ids sort by their start). Run
 * directories without a readable record (runs of an older bullswarm) are left out.
 */
export function listRunRecords(home: string, limit: number): RunRecordFile[] {
  let names: string[];
  try {
    names = readdirSync(runsDirOf(home)).filter((name) => RUN_RECORD_ID_PATTERN.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  names.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const records: RunRecordFile[] = [];
  for (const name of names) {
    if (records.length >= limit) break;
    const record = readRunRecord(home, name);
    if (record !== undefined) records.push(record);
  }
  return records;
}
