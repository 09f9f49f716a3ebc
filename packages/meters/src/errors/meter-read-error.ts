import { hasErrorMarker } from '@bullswarm/pacing';
import { MeterError } from './meter-error';

const readErrorKey = 'bullswarm.error.MeterReadError';
const readErrorMarker = Symbol.for(readErrorKey);

/**
 * Why a meter read failed.
 * - `http-status`: the usage endpoint answered with a non-2xx status (see `httpStatus`).
 * - `network`: the usage endpoint could not be reached, or did not answer in time.
 * - `bad-response`: the usage endpoint answered 2xx with a body that is not the documented shape.
 * - `no-credentials`: no OAuth access token for the account (no `.credentials.json`, no token in it).
 * - `token-expired`: the stored OAuth token's `expiresAt` has passed (Claude Code refreshes it on its next run).
 * - `missing-scope`: the stored token lacks the `user:profile` scope the usage endpoint needs.
 * - `no-file`: a meter file (or the statusline capture) does not exist.
 * - `bad-reading`: a file or command output is not a valid bullswarm meter reading (see `fieldPath`).
 * - `command-exit`: the meter command exited non-zero (see `exitCode`).
 * - `command-timeout`: the meter command ran past its timeout and was stopped.
 * - `command-failed`: the meter command could not be started (not found, not executable).
 * - `no-rollout`: no Codex rollout file with usable `rate_limits` under the sessions directory.
 * - `bad-source`: the meter source itself is invalid (e.g. an unknown template variable).
 * - `io`: a file could not be read for another reason (permissions, a directory, …).
 */
export type MeterReadErrorReason =
  | 'http-status'
  | 'network'
  | 'bad-response'
  | 'no-credentials'
  | 'token-expired'
  | 'missing-scope'
  | 'no-file'
  | 'bad-reading'
  | 'command-exit'
  | 'command-timeout'
  | 'command-failed'
  | 'no-rollout'
  | 'bad-source'
  | 'io';

/**
 * A meter source could not be read. The meter service turns it into a stale hold (or
 * `unmetered` when there is no previous reading) with `status` as the pool's `meterError`.
 */
export class MeterReadError extends MeterError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for in isInstance
  private readonly [readErrorMarker] = true;
  /** The meter source type that failed (`codex-rollout`, `claude-code`, `command`, `file`, …). */
  readonly sourceType: string;
  readonly reason: MeterReadErrorReason;
  /**
   * Short status for display and `meterError`: `http 429`, `command exited 1`, `no meter file`,
   * `bad meter reading`, … Never contains a credential.
   */
  readonly status: string;
  /** What was read: a file path, the command line, or the endpoint URL. */
  readonly location?: string;
  /** The HTTP status, for `http-status`. */
  readonly httpStatus?: number;
  /** The exit code, for `command-exit`. */
  readonly exitCode?: number;
  /** The offending field, for `bad-reading`/`bad-response`, as a path like `windows[0].usedPct`. */
  readonly fieldPath?: string;
  /** Trying again later may succeed (429, 5xx, network, timeouts, a missing file that may appear). */
  readonly isRetryable: boolean;

  constructor(options: {
    readonly sourceType: string;
    readonly reason: MeterReadErrorReason;
    readonly status: string;
    readonly message: string;
    readonly location?: string;
    readonly httpStatus?: number;
    readonly exitCode?: number;
    readonly fieldPath?: string;
    readonly isRetryable?: boolean;
    readonly cause?: unknown;
  }) {
    super({ name: 'MeterReadError', message: options.message, cause: options.cause });
    this.sourceType = options.sourceType;
    this.reason = options.reason;
    this.status = options.status;
    this.location = options.location;
    this.httpStatus = options.httpStatus;
    this.exitCode = options.exitCode;
    this.fieldPath = options.fieldPath;
    this.isRetryable = options.isRetryable ?? true;
  }

  static override isInstance(value: unknown): value is MeterReadError {
    return hasErrorMarker(value, readErrorKey);
  }
}
