import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MeterWindow, WindowKind } from '@bullswarm/pacing';
import { MeterReadError } from '../errors/meter-read-error';
import { classifyWindowMinutes, epochToMs } from '../reading/window-kinds';
import type { MeterReadContext, MeterReader, MeterReadResult } from './meter-reader';
import { resolveAccountDirectory } from './resolve-account-directory';

/** Settings of the Codex rollout reader. */
export interface CodexRolloutMeterReaderSettings {
  /**
   * `<codexHome>`, may use templates. Empty (or expanding to empty) falls back to the account's
   * `$CODEX_HOME`, then `<userHome>/.codex`.
   */
  readonly codexHome?: string;
  /** How many rollout files (newest first) to scan before giving up. Default 50. */
  readonly maxFiles?: number;
  /** Bytes read from a file's end per step. Default 64 KiB. */
  readonly chunkBytes?: number;
}

const DEFAULT_MAX_FILES = 50;
const DEFAULT_CHUNK_BYTES = 64 * 1024;
/** A `token_count` line is a few KB; a line longer than this is skipped without being parsed. */
const MAX_LINE_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;
const RATE_LIMITS_MARKER = Buffer.from('"rate_limits"');

/** A `rate_limits` window as Codex writes it in `token_count` events (every field may be missing or null). */
interface CodexRateLimitWindow {
  readonly used_percent?: number | null;
  readonly window_minutes?: number | null;
  /** Epoch seconds (newer Codex). */
  readonly resets_at?: number | null;
  /** Seconds after the line's `timestamp` (older Codex). */
  readonly resets_in_seconds?: number | null;
}

interface CodexRateLimits {
  readonly limit_id?: string | null;
  readonly primary?: CodexRateLimitWindow | null;
  readonly secondary?: CodexRateLimitWindow | null;
  readonly rate_limit_reached_type?: string | null;
}

/** The newest usable `rate_limits` found, with where it came from. */
export interface CodexRateLimitsReading {
  readonly windows: MeterWindow[];
  readonly readAt?: number;
  readonly rateLimitReached: boolean;
  /** The rollout file it came from. */
  readonly file: string;
  /** Bytes read from rollout files to find it (the tail scan keeps this small on big files). */
  readonly bytesRead: number;
  /** Rollout files opened to find it. */
  readonly filesScanned: number;
}

/**
 * Reads a Codex CLI account's meter from its rollout files,
 * `<codexHome>/sessions/YYYY/MM/DD/rollout-*.jsonl` (research §2.4).
 *
 * - Files are visited newest first (the path sorts chronologically), each scanned from its END in
 *   chunks, so a multi-megabyte rollout costs a few reads; the first usable `rate_limits` of an
 *   `event_msg`/`token_count` line found that way is the newest one.
 * - A `rate_limits` whose windows are all null (the `limit_id:"premium"` lines Codex writes at
 *   shutdown or at the limit) is skipped: the last usable one wins.
 * - Windows are classified by `window_minutes` (300 → five_hour, 10080 → weekly, ~43200 →
 *   monthly), never by slot: some plans report the weekly window as `primary`.
 * - The reset is `resets_at` (epoch seconds) or, in older rollouts, `resets_in_seconds` counted
 *   from the line's `timestamp`.
 * - `readAt` is the line's timestamp: Codex writes limits only while it runs, so the reading is
 *   as fresh as the account's last run.
 */
export function createCodexRolloutMeterReader(settings: CodexRolloutMeterReaderSettings = {}): MeterReader {
  return {
    sourceType: 'codex-rollout',
    async read(context: MeterReadContext): Promise<MeterReadResult> {
      const codexHome = resolveAccountDirectory(settings.codexHome, context, 'CODEX_HOME', '.codex');
      const found = await findNewestCodexRateLimits(codexHome, settings);
      const now = context.now();
      const limitStillActive =
        found.rateLimitReached && found.windows.some((w) => w.resetsAt === undefined || w.resetsAt > now);
      return {
        kind: 'reading',
        windows: found.windows,
        ...(found.readAt === undefined ? {} : { readAt: found.readAt }),
        ...(limitStillActive ? { rateLimited: true } : {}),
      };
    },
  };
}

/**
 * Finds the newest usable `rate_limits` under `<codexHome>/sessions`. Throws a
 * `MeterReadError` (`no-rollout`) when there is none in the newest `maxFiles` files.
 */
export async function findNewestCodexRateLimits(
  codexHome: string,
  settings: Pick<CodexRolloutMeterReaderSettings, 'maxFiles' | 'chunkBytes'> = {},
): Promise<CodexRateLimitsReading> {
  const sessions = join(codexHome, 'sessions');
  const maxFiles = settings.maxFiles ?? DEFAULT_MAX_FILES;
  const chunkBytes = settings.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  let scanned = 0;
  const counter = { bytesRead: 0 };
  for await (const file of newestRolloutFiles(sessions)) {
    if (scanned >= maxFiles) break;
    scanned += 1;
    const found = await scanRolloutFromEnd(file, chunkBytes, counter);
    if (found) return { ...found, file, bytesRead: counter.bytesRead, filesScanned: scanned };
  }
  throw new MeterReadError({
    sourceType: 'codex-rollout',
    reason: 'no-rollout',
    status: 'no codex rate_limits',
    location: sessions,
    message:
      scanned === 0
        ? `no Codex rollout files under ${sessions} (expected sessions/YYYY/MM/DD/rollout-*.jsonl; run codex once, or set the source's codexHome / $CODEX_HOME)`
        : `no usable rate_limits in the newest ${scanned} Codex rollout file(s) under ${sessions}`,
    isRetryable: true,
  });
}

async function listSorted(directory: string, pattern: RegExp): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new MeterReadError({
      sourceType: 'codex-rollout',
      reason: 'io',
      status: `codex sessions ${code ?? 'unreadable'}`,
      location: directory,
      message: `cannot list Codex sessions directory ${directory}: ${(error as Error).message}`,
      cause: error,
    });
  }
  return names.filter((name) => pattern.test(name)).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

/** Rollout files, newest first: year, month, day directories descending, then file names descending. */
async function* newestRolloutFiles(sessions: string): AsyncGenerator<string> {
  for (const year of await listSorted(sessions, /^\d{4}$/)) {
    for (const month of await listSorted(join(sessions, year), /^\d{2}$/)) {
      for (const day of await listSorted(join(sessions, year, month), /^\d{2}$/)) {
        const directory = join(sessions, year, month, day);
        for (const file of await listSorted(directory, /^rollout-.*\.jsonl$/)) {
          yield join(directory, file);
        }
      }
    }
  }
}

/**
 * Scans one rollout file from its end for the last usable `rate_limits`. Works on bytes
 * (a newline byte never occurs inside a UTF-8 sequence) and keeps only the partial first line
 * of each chunk between reads.
 */
type LineReading = Omit<CodexRateLimitsReading, 'file' | 'bytesRead' | 'filesScanned'>;

async function scanRolloutFromEnd(
  file: string,
  chunkBytes: number,
  counter: { bytesRead: number },
): Promise<LineReading | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined; // removed between listing and reading
    throw new MeterReadError({
      sourceType: 'codex-rollout',
      reason: 'io',
      status: `codex rollout ${code ?? 'unreadable'}`,
      location: file,
      message: `cannot read Codex rollout ${file}: ${(error as Error).message}`,
      cause: error,
    });
  }
  try {
    const { size } = await handle.stat();
    let position = size;
    // Bytes of the line that straddles the previous chunk boundary (its end is known).
    let carry: Buffer = Buffer.alloc(0);
    // The line being carried is longer than MAX_LINE_BYTES: drop bytes until its start.
    let skipping = false;
    while (position > 0) {
      const length = Math.min(chunkBytes, position);
      position -= length;
      const chunk = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      counter.bytesRead += bytesRead;
      let buffer = chunk.subarray(0, bytesRead);
      let end = buffer.length;
      if (skipping) {
        const newline = buffer.lastIndexOf(NEWLINE);
        if (newline === -1) continue;
        skipping = false;
        end = newline;
        carry = Buffer.alloc(0);
      } else if (carry.length > 0) {
        buffer = Buffer.concat([buffer, carry]);
        end = buffer.length;
      }
      for (let index = end - 1; index >= 0; index -= 1) {
        if (buffer[index] !== NEWLINE) continue;
        const found = parseRolloutLine(buffer.subarray(index + 1, end));
        if (found) return found;
        end = index;
      }
      carry = buffer.subarray(0, end);
      if (carry.length > MAX_LINE_BYTES) {
        skipping = true;
        carry = Buffer.alloc(0);
      }
    }
    if (!skipping && carry.length > 0) return parseRolloutLine(carry);
    return undefined;
  } finally {
    await handle.close();
  }
}

function parseRolloutLine(line: Buffer): LineReading | undefined {
  if (line.length === 0 || line.indexOf(RATE_LIMITS_MARKER) === -1) return undefined;
  let event: { timestamp?: unknown; type?: unknown; payload?: { type?: unknown; rate_limits?: unknown } };
  try {
    event = JSON.parse(line.toString('utf8'));
  } catch {
    return undefined; // a torn last line while Codex is writing, or not JSON: skip
  }
  if (event?.type !== 'event_msg' || event.payload?.type !== 'token_count') return undefined;
  const limits = event.payload.rate_limits as CodexRateLimits | null | undefined;
  if (!limits || typeof limits !== 'object') return undefined;
  const lineTime = typeof event.timestamp === 'string' ? Date.parse(event.timestamp) : Number.NaN;
  const readAt = Number.isFinite(lineTime) ? lineTime : undefined;
  const windows: MeterWindow[] = [];
  const seen = new Set<WindowKind>();
  for (const slot of [limits.primary, limits.secondary]) {
    const window = toMeterWindow(slot, readAt);
    if (window && !seen.has(window.kind)) {
      seen.add(window.kind);
      windows.push(window);
    }
  }
  if (windows.length === 0) return undefined;
  return {
    windows,
    ...(readAt === undefined ? {} : { readAt }),
    rateLimitReached:
      typeof limits.rate_limit_reached_type === 'string' && limits.rate_limit_reached_type !== '',
  };
}

function toMeterWindow(
  slot: CodexRateLimitWindow | null | undefined,
  lineTime: number | undefined,
): MeterWindow | undefined {
  if (!slot || typeof slot !== 'object') return undefined;
  const { used_percent: usedPct, window_minutes: minutes } = slot;
  if (typeof usedPct !== 'number' || !Number.isFinite(usedPct) || typeof minutes !== 'number')
    return undefined;
  const kind = classifyWindowMinutes(minutes);
  if (!kind) return undefined;
  let resetsAt: number | undefined;
  if (typeof slot.resets_at === 'number' && Number.isFinite(slot.resets_at)) {
    resetsAt = epochToMs(slot.resets_at);
  } else if (
    typeof slot.resets_in_seconds === 'number' &&
    Number.isFinite(slot.resets_in_seconds) &&
    lineTime !== undefined
  ) {
    resetsAt = lineTime + Math.round(slot.resets_in_seconds * 1000);
  }
  return {
    kind,
    usedPct: Math.max(0, usedPct),
    ...(resetsAt === undefined ? {} : { resetsAt }),
    windowMinutes: minutes,
  };
}
