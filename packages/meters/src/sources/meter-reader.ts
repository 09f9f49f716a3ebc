import type { ConnectorV1MeterSourceType } from '@bullswarm/connectors';
import type { MeterWindow } from '@bullswarm/pacing';
import type { AsyncMeterLog } from '@bullswarm/store';
import type { ParsedMeterReading } from '../reading/parse-meter-reading';

/**
 * What one read of a meter source produced.
 * - `reading`: the source gave windows (possibly none). `readAt` is when the source says the
 *   numbers were taken (a Codex rollout line's timestamp, a file's `readAt`), when it says.
 * - `manual`: a reading a person set by hand (`bullswarm meters set`).
 * - `unmetered`: the source has nothing to read (`none`, or `manual` with nothing set).
 *
 * A failed read throws a `MeterReadError` instead.
 */
export type MeterReadResult =
  | {
      readonly kind: 'reading';
      readonly windows: readonly MeterWindow[];
      readonly readAt?: number;
      readonly rateLimited?: boolean;
    }
  | { readonly kind: 'manual'; readonly windows: readonly MeterWindow[]; readonly readAt: number }
  | { readonly kind: 'unmetered' };

/** Everything one read needs to know about the pool it reads for. */
export interface MeterReadContext {
  /** The pool being read, e.g. `claude-code:acme`. */
  readonly poolId: string;
  /** `{{account}}`: the pool's account name, or `default`. */
  readonly account: string;
  /** `{{home}}`: the bullswarm home ($BULLSWARM_HOME). */
  readonly home: string;
  /** `{{userHome}}`: the user's home directory (default of `~/.codex`, `~/.claude`). */
  readonly userHome: string;
  /** The pool's account environment: `{{env.NAME}}`, `$CODEX_HOME`, `$CLAUDE_CONFIG_DIR`, a command's env. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The clock (epoch ms). */
  readonly now: () => number;
  /** The store's meter log, for `manual` sources. */
  readonly meters?: Pick<AsyncMeterLog, 'getManual'>;
  /** Aborts an in-flight read (HTTP request, command). */
  readonly signal?: AbortSignal;
}

/** A reader of one meter source. */
export interface MeterReader {
  /** The source type it reads. */
  readonly sourceType: ConnectorV1MeterSourceType;
  /** Reads the source once. Throws a `MeterReadError` when the source cannot be read. */
  read(context: MeterReadContext): Promise<MeterReadResult>;
}

/** The result of a read that gave a bullswarm meter reading (a file, a command's stdout, a capture). */
export function readingResult(reading: ParsedMeterReading): MeterReadResult {
  return {
    kind: 'reading',
    windows: reading.windows,
    ...(reading.readAt === undefined ? {} : { readAt: reading.readAt }),
    ...(reading.rateLimited === undefined ? {} : { rateLimited: reading.rateLimited }),
  };
}
