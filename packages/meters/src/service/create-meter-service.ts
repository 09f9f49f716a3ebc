import { homedir } from 'node:os';
import type { ConnectorV1MeterSource } from '@bullswarm/connectors';
import type { MeterWindow, PoolMeter, WindowKind } from '@bullswarm/pacing';
import { BURST_BLOCK_PCT } from '@bullswarm/pacing/internal';
import type { AsyncMeterLog, MeterCacheEntry, MeterReadingRow } from '@bullswarm/store';
import { MeterReadError } from '../errors/meter-read-error';
import { MeterTemplateError } from '../errors/meter-template-error';
import { DEFAULT_WINDOW_MINUTES } from '../reading/window-kinds';
import { createMeterReader, type MeterReaderOptions } from '../sources/create-meter-reader';
import type { MeterReadContext } from '../sources/meter-reader';
import { accountOfPoolId } from '../template/expand-template';
import { backoffDelayMs, type MeterBackoff } from './backoff';
import { meterErrorDetail } from './meter-error-detail';

/** Settings of {@link createMeterService}. */
export interface MeterServiceSettings {
  /**
   * The store whose meter log holds the cache, the retained readings and manual readings: the
   * asynchronous store of either engine (`openHomeStore`), so machines sharing a Postgres store
   * share their readings.
   */
  readonly store: { readonly meters: AsyncMeterLog };
  /** The clock (epoch ms); default `Date.now`. Pass the store's `createClock()` to honour `BULLSWARM_NOW`. */
  readonly clock?: () => number;
  /** How long a reading is reused without touching its source; default 120 s (`[cache]` in `bullswarm pools`). */
  readonly ttlMs?: number;
  /** Back-off of failed polls; default 30 s doubling to 15 min. */
  readonly backoff?: MeterBackoff;
  /** How many pools `readAll` reads at once; default 4. */
  readonly concurrency?: number;
  /** Retained readings older than this are pruned; default 14 days. */
  readonly retentionMs?: number;
  /** Prune at most this often per service (the first successful read of a process prunes); default 1 h. */
  readonly pruneIntervalMs?: number;
  /** `{{userHome}}` and the base of `~/.codex`, `~/.claude`; default `os.homedir()`. */
  readonly userHome?: string;
  /** The base environment a pool's `accountEnv` is laid over; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Endpoints, timeouts and injectable I/O of the readers. */
  readonly readers?: MeterReaderOptions;
}

/** One pool to read. */
export interface PoolMeterRequest {
  /** The pool id, e.g. `claude-code:acme` (its account part is `{{account}}`). */
  readonly poolId: string;
  /** The pool's meter source (state.json override or the connector's); undefined is `none`. */
  readonly source: ConnectorV1MeterSource | undefined;
  /** The pool's account environment (e.g. `CODEX_HOME`, `CLAUDE_CONFIG_DIR`), laid over the base env. */
  readonly accountEnv?: Readonly<Record<string, string | undefined>>;
  /** `{{home}}`: the bullswarm home. */
  readonly home: string;
  /** Go to the source now: skip the cache and any back-off hold. */
  readonly force?: boolean;
  /** This pool's TTL in seconds (`config.meterTtlSec`); overrides the service's `ttlMs`. */
  readonly meterTtlSec?: number;
  readonly signal?: AbortSignal;
}

/** What {@link MeterService.markUsageLimit} was told about a usage limit. */
export interface UsageLimitNotice {
  /** When the limited window resets, if the provider named it (epoch ms). */
  readonly resetsAt?: number;
  /** Which window is spent, if the provider said. */
  readonly window?: WindowKind;
}

/** What {@link MeterService.markUsageLimit} decided. */
export interface UsageLimitMark {
  readonly poolId: string;
  /**
   * The window that counts as full until `countsFullUntil` if the forced re-read fails;
   * undefined when no reset is known (then nothing keeps the pool out).
   */
  readonly window?: WindowKind;
  readonly countsFullUntil?: number;
}

/** The meter service: cached, held and retained meter reads. */
export interface MeterService {
  /** A pool's meter now; see {@link createMeterService} for the rules. Never throws for a source failure. */
  readPoolMeter(request: PoolMeterRequest): Promise<PoolMeter>;
  /** Several pools' meters, at most `concurrency` at once, keyed by pool id. */
  readAll(requests: readonly PoolMeterRequest[]): Promise<Map<string, PoolMeter>>;
  /**
   * Record a usage limit a pool hit: its next read goes to the source at once, and if that read
   * fails the limited window counts as full (100%) until its reset — only when the reset is
   * known, from `notice.resetsAt` or an earlier reading.
   */
  markUsageLimit(poolId: string, notice?: UsageLimitNotice): Promise<UsageLimitMark>;
  /** Drop retained readings older than the retention; returns how many were dropped. */
  pruneReadings(): Promise<number>;
}

/** The cache entry of a pool whose source failed before it was ever read has this `readAt`. */
const NEVER_READ_AT = 0;
/** The `source` of a cache entry made from a usage-limit notice alone. */
const USAGE_LIMIT_SOURCE = 'usage-limit';
const DEFAULT_TTL_MS = 120_000;
const DEFAULT_RETENTION_MS = 14 * 86_400_000;
const DEFAULT_PRUNE_INTERVAL_MS = 3_600_000;
/** A reset named by a limit notice within this distance of a known window's reset names that window. */
const RESET_MATCH_MS = 10 * 60_000;

/**
 * Creates the meter service.
 *
 * `readPoolMeter` decides, in order:
 * 1. A manual reading (`bullswarm meters set`) replaces any source → status `manual`; a usage
 *    limit marked after it was set (see below) lays its full window over it until the reset.
 * 2. Source `none` (or `manual` with nothing set) → `unmetered`, unless a usage limit with a
 *    known reset was marked: then the meter cannot be read, so the pool counts as full until that
 *    reset (docs/routing.md) — status `stale`, the full window, `meterError` `usage limit` and
 *    `meterHoldUntil` the reset.
 * 3. Unless forced (`force`, or the cache's `forceReread` flag set by `markUsageLimit`):
 *    - inside a back-off hold (a failed poll, `now < meterHoldUntil`) → the held reading with
 *      status `stale`, `meterError` and `meterHoldUntil` (or `unmetered` with `meterError` when
 *      there never was a good reading) — the source is NOT polled;
 *    - a good reading younger than the TTL → status `cache`, no source I/O at all.
 * 4. Otherwise the source is read. Success → status `live`; the cache is replaced and the
 *    windows are retained (one row per window). Failure → the previous good reading is held with
 *    status `stale`, `meterError` = the error's short status (`http 429`, `command exited 1`,
 *    `no meter file`), `meterErrorDetail` = its full message (the file or command and the field
 *    path; credentials redacted, see {@link meterErrorDetail}) and `meterHoldUntil` = now + back-off (30 s, 60 s, 120 s … capped at
 *    15 min, counted in consecutive failures); with no previous reading → `unmetered` with
 *    `meterError`.
 *
 * `readAt` of a returned meter is when bullswarm read the source (the TTL counts from it).
 * Retained rows carry the source's own time when it has one (a Codex rollout line's timestamp,
 * a reading file's `readAt`), and a reading already retained with that time is not retained
 * again, so re-reading an unchanged rollout adds no rows. Pruning (older than 14 days) runs on a
 * process's first successful read and then at most hourly — one indexed DELETE, never per read.
 *
 * Windows are returned as read; a window whose reset has passed is rolled over by pacing
 * (`effectiveWindow`), not here.
 *
 * A cache entry written by a different source type (the pool's meter source was changed) is
 * neither served as `cache` nor holds the new source back: the new source is read at once.
 *
 * Two processes may poll the same pool at the same moment; the later write wins. Nothing else
 * depends on their order.
 */
export function createMeterService(settings: MeterServiceSettings): MeterService {
  const meters = settings.store.meters;
  const clock = settings.clock ?? Date.now;
  const defaultTtlMs = settings.ttlMs ?? DEFAULT_TTL_MS;
  const retentionMs = settings.retentionMs ?? DEFAULT_RETENTION_MS;
  const pruneIntervalMs = settings.pruneIntervalMs ?? DEFAULT_PRUNE_INTERVAL_MS;
  const concurrency = Math.max(1, Math.floor(settings.concurrency ?? 4));
  const userHome = settings.userHome ?? homedir();
  const baseEnv = settings.env ?? process.env;
  let lastPruneAt = Number.NEGATIVE_INFINITY;

  function pruneReadings(): Promise<number> {
    const now = clock();
    lastPruneAt = now;
    return meters.pruneReadings(now - retentionMs);
  }

  function held(entry: MeterCacheEntry): PoolMeter {
    const failure = {
      ...(entry.meterError === undefined ? {} : { meterError: entry.meterError }),
      ...(entry.meterErrorDetail === undefined ? {} : { meterErrorDetail: entry.meterErrorDetail }),
      ...(entry.meterHoldUntil === undefined ? {} : { meterHoldUntil: entry.meterHoldUntil }),
    };
    if (entry.readAt === NEVER_READ_AT) return { status: 'unmetered', windows: [], ...failure };
    return {
      status: 'stale',
      windows: entry.windows,
      readAt: entry.readAt,
      ...(entry.rateLimited === undefined ? {} : { rateLimited: entry.rateLimited }),
      ...failure,
    };
  }

  async function retain(
    poolId: string,
    source: string,
    windows: readonly MeterWindow[],
    stampedAt: number,
  ): Promise<void> {
    const first = windows[0];
    if (!first) return;
    const already = (await meters.listReadings(poolId, { window: first.kind, since: stampedAt })).some(
      (row) => row.readAt === stampedAt && row.source === source,
    );
    if (already) return;
    const rows: MeterReadingRow[] = windows.map((w) => ({
      poolId,
      window: w.kind,
      usedPct: w.usedPct,
      ...(w.resetsAt === undefined ? {} : { resetsAt: w.resetsAt }),
      windowMinutes: w.windowMinutes,
      readAt: stampedAt,
      source,
    }));
    await meters.appendReadings(rows);
    if (clock() - lastPruneAt >= pruneIntervalMs) await pruneReadings();
  }

  async function readPoolMeter(request: PoolMeterRequest): Promise<PoolMeter> {
    const { poolId } = request;
    const manual = await meters.getManual(poolId);
    if (manual) {
      const mark = await usageLimitHold(poolId);
      const windows =
        mark !== undefined && mark.markedAt >= manual.setAt
          ? [...manual.windows.filter((w) => !mark.windows.some((f) => f.kind === w.kind)), ...mark.windows]
          : manual.windows;
      return { status: 'manual', windows, readAt: manual.setAt };
    }
    const source = request.source;
    if (!source || source.type === 'none' || source.type === 'manual') {
      const mark = await usageLimitHold(poolId);
      if (mark === undefined) return { status: 'unmetered', windows: [] };
      return {
        status: 'stale',
        windows: mark.windows,
        readAt: mark.markedAt,
        rateLimited: true,
        meterError: 'usage limit',
        meterHoldUntil: Math.max(...mark.windows.map((w) => w.resetsAt!)),
      };
    }

    const cache = await meters.getCache(poolId);
    const now = clock();
    // A cache written by another source type (the pool's meter override changed) is not served
    // fresh and does not hold the new source back; it still serves as the previous good reading.
    const sourceChanged =
      cache !== undefined && cache.source !== source.type && cache.source !== USAGE_LIMIT_SOURCE;
    const forced = request.force === true || cache?.forceReread === true || sourceChanged;
    if (cache && !forced) {
      if (cache.meterHoldUntil !== undefined && cache.meterError !== undefined) {
        if (now < cache.meterHoldUntil) return held(cache);
      } else {
        const ttlMs = request.meterTtlSec !== undefined ? request.meterTtlSec * 1000 : defaultTtlMs;
        if (cache.readAt !== NEVER_READ_AT && now >= cache.readAt && now - cache.readAt < ttlMs) {
          return {
            status: 'cache',
            windows: cache.windows,
            readAt: cache.readAt,
            ...(cache.rateLimited === undefined ? {} : { rateLimited: cache.rateLimited }),
          };
        }
      }
    }

    const context: MeterReadContext = {
      poolId,
      account: accountOfPoolId(poolId),
      home: request.home,
      userHome,
      env: { ...baseEnv, ...request.accountEnv },
      now: clock,
      meters,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    };
    let result: Awaited<ReturnType<ReturnType<typeof createMeterReader>['read']>>;
    try {
      result = await createMeterReader(source, settings.readers).read(context);
    } catch (error) {
      return recordFailure(poolId, source.type, toReadError(error, source.type), context.env);
    }
    if (result.kind === 'unmetered') return { status: 'unmetered', windows: [] };
    if (result.kind === 'manual') return { status: 'manual', windows: result.windows, readAt: result.readAt };

    const readAt = clock();
    await meters.setCache({
      poolId,
      windows: result.windows,
      readAt,
      source: source.type,
      ...(result.rateLimited === undefined ? {} : { rateLimited: result.rateLimited }),
      failures: 0,
    });
    await retain(poolId, source.type, result.windows, result.readAt ?? readAt);
    return {
      status: 'live',
      windows: result.windows,
      readAt,
      ...(result.rateLimited === undefined ? {} : { rateLimited: result.rateLimited }),
    };
  }

  /**
   * The windows a usage limit left full on a pool whose meter cannot be read (no source, or a
   * manual one): what `markUsageLimit` wrote, while its reset is ahead. Undefined when nothing
   * (or nothing with a known reset) is marked.
   */
  async function usageLimitHold(
    poolId: string,
  ): Promise<{ windows: MeterWindow[]; markedAt: number } | undefined> {
    const cache = await meters.getCache(poolId);
    if (cache === undefined || cache.forceReread !== true || cache.rateLimited !== true) return undefined;
    const now = clock();
    const windows = cache.windows.filter(
      (w) => w.usedPct >= BURST_BLOCK_PCT && w.resetsAt !== undefined && w.resetsAt > now,
    );
    return windows.length === 0 ? undefined : { windows, markedAt: cache.readAt };
  }

  async function recordFailure(
    poolId: string,
    sourceType: string,
    error: MeterReadError,
    env: MeterReadContext['env'],
  ): Promise<PoolMeter> {
    // Re-read: another process may have written the cache while this one was polling.
    const cache = await meters.getCache(poolId);
    const now = clock();
    const failures = (cache?.failures ?? 0) + 1;
    const failure = {
      meterError: error.status,
      meterErrorDetail: meterErrorDetail(error, env),
      meterHoldUntil: now + backoffDelayMs(failures, settings.backoff),
    };
    const entry: MeterCacheEntry =
      cache && cache.readAt !== NEVER_READ_AT
        ? // `source` names the source the hold belongs to (it differs from the windows' origin only
          // right after the pool's meter source was changed).
          { ...cache, source: sourceType, ...failure, failures, forceReread: false }
        : { poolId, windows: [], readAt: NEVER_READ_AT, source: sourceType, ...failure, failures };
    await meters.setCache(entry);
    return held(entry);
  }

  async function markUsageLimit(poolId: string, notice: UsageLimitNotice = {}): Promise<UsageLimitMark> {
    const now = clock();
    const cache = await meters.getCache(poolId);
    const hasReading = cache !== undefined && cache.readAt !== NEVER_READ_AT;
    const windows = hasReading ? cache.windows : [];
    // A pool read by hand (a manual reading newer than any source reading: the one readPoolMeter
    // serves) has it as the earlier reading that may give the reset, and the mark is stamped now,
    // so the overlay knows it came after that manual reading.
    const manual = await meters.getManual(poolId);
    const readByHand = manual !== undefined && (!hasReading || manual.setAt >= cache.readAt);
    const earlier = readByHand ? manual.windows : windows;
    const limited = limitedWindow(earlier, notice, now);
    if (!limited) {
      await meters.forceReread(poolId); // no known reset: only the forced re-read; nothing keeps the pool out
      return { poolId };
    }
    const existing = earlier.find((w) => w.kind === limited.kind);
    const full: MeterWindow = {
      kind: limited.kind,
      usedPct: Math.max(existing?.usedPct ?? 0, BURST_BLOCK_PCT),
      resetsAt: limited.resetsAt,
      windowMinutes: existing?.windowMinutes ?? DEFAULT_WINDOW_MINUTES[limited.kind],
    };
    const nextWindows = readByHand
      ? [...windows.filter((w) => w.kind !== full.kind), full]
      : existing
        ? windows.map((w) => (w === existing ? full : w))
        : [...windows, full];
    await meters.setCache({
      poolId,
      windows: nextWindows,
      readAt: hasReading && !readByHand ? cache.readAt : now,
      source: hasReading ? cache.source : USAGE_LIMIT_SOURCE,
      rateLimited: true,
      failures: cache?.failures ?? 0,
      forceReread: true,
    });
    return { poolId, window: limited.kind, countsFullUntil: limited.resetsAt };
  }

  async function readAll(requests: readonly PoolMeterRequest[]): Promise<Map<string, PoolMeter>> {
    const results: PoolMeter[] = new Array(requests.length);
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const index = next;
        next += 1;
        results[index] = await readPoolMeter(requests[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
    return new Map(requests.map((request, index) => [request.poolId, results[index]!]));
  }

  return { readPoolMeter, readAll, markUsageLimit, pruneReadings };
}

/**
 * Which window a usage limit spent, and until when — only when the reset is known.
 * - window and reset named: those.
 * - window named, no reset: that window's reset from the earlier reading, if still ahead.
 * - reset named, no window: the earlier reading's window whose reset is within 10 min of it;
 *   otherwise the shortest window kind the reset fits in (≤ 5 h → five_hour, ≤ 7 days → weekly,
 *   else monthly).
 * - neither: the earlier reading's fullest window among those with a reset still ahead (a tie
 *   goes to the one that resets first).
 */
function limitedWindow(
  windows: readonly MeterWindow[],
  notice: UsageLimitNotice,
  now: number,
): { kind: WindowKind; resetsAt: number } | undefined {
  const ahead = (at: number | undefined): at is number => at !== undefined && Number.isFinite(at) && at > now;
  const named = ahead(notice.resetsAt) ? notice.resetsAt : undefined;
  if (notice.window) {
    const resetsAt = named ?? windows.find((w) => w.kind === notice.window)?.resetsAt;
    return ahead(resetsAt) ? { kind: notice.window, resetsAt } : undefined;
  }
  if (named !== undefined) {
    const match = windows.find(
      (w) => w.resetsAt !== undefined && Math.abs(w.resetsAt - named) <= RESET_MATCH_MS,
    );
    if (match) return { kind: match.kind, resetsAt: named };
    const minutes = (named - now) / 60_000;
    const kind: WindowKind =
      minutes <= DEFAULT_WINDOW_MINUTES.five_hour
        ? 'five_hour'
        : minutes <= DEFAULT_WINDOW_MINUTES.weekly
          ? 'weekly'
          : 'monthly';
    return { kind, resetsAt: named };
  }
  let best: { kind: WindowKind; resetsAt: number; usedPct: number } | undefined;
  for (const w of windows) {
    if (!ahead(w.resetsAt)) continue;
    if (!best || w.usedPct > best.usedPct || (w.usedPct === best.usedPct && w.resetsAt < best.resetsAt)) {
      best = { kind: w.kind, resetsAt: w.resetsAt, usedPct: w.usedPct };
    }
  }
  return best && { kind: best.kind, resetsAt: best.resetsAt };
}

function toReadError(error: unknown, sourceType: string): MeterReadError {
  if (MeterReadError.isInstance(error)) return error;
  if (MeterTemplateError.isInstance(error)) {
    return new MeterReadError({
      sourceType,
      reason: 'bad-source',
      status: 'bad meter source',
      location: error.template,
      message: error.message,
      isRetryable: false,
      cause: error,
    });
  }
  return new MeterReadError({
    sourceType,
    reason: 'io',
    status: `read failed: ${(error as Error)?.name ?? 'error'}`,
    message: `meter source ${sourceType} failed: ${(error as Error)?.message ?? String(error)}`,
    cause: error,
  });
}
