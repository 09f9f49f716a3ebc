import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MeterWindow } from '@bullswarm/pacing';
import { MeterReadError } from '../errors/meter-read-error';
import { DEFAULT_WINDOW_MINUTES } from '../reading/window-kinds';

/** The production origin of the Claude OAuth usage endpoint. */
export const CLAUDE_USAGE_BASE_URL = 'https://api.anthropic.com';
/** The path of the (undocumented) OAuth usage endpoint. */
export const CLAUDE_USAGE_PATH = '/api/oauth/usage';

/** Settings of one OAuth usage request. */
export interface ClaudeOAuthUsageSettings {
  /** Origin of the usage endpoint; default {@link CLAUDE_USAGE_BASE_URL}. Tests point it at a loopback server. */
  readonly baseUrl?: string;
  /** Request timeout; default 10 s. */
  readonly timeoutMs?: number;
  /** The fetch implementation; default the global `fetch`. */
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
  /** The clock, to tell an expired token from a live one. */
  readonly now: () => number;
}

const SOURCE = 'claude-code';

/** The stored OAuth token of a Claude Code account, and the file it came from. */
export interface ClaudeCredentials {
  /** `<configDir>/.credentials.json`. */
  readonly path: string;
  readonly accessToken: string;
  readonly expiresAt?: number;
  readonly scopes?: readonly string[];
}

/**
 * Reads the OAuth access token Claude Code stores in `<configDir>/.credentials.json`
 * (`claudeAiOauth.accessToken`). The token never appears in errors or logs.
 */
export async function readClaudeCredentials(configDir: string): Promise<ClaudeCredentials> {
  const path = join(configDir, '.credentials.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new MeterReadError({
      sourceType: SOURCE,
      reason: code === 'ENOENT' ? 'no-credentials' : 'io',
      status: code === 'ENOENT' ? 'no oauth credentials' : `credentials ${code ?? 'unreadable'}`,
      location: path,
      message:
        code === 'ENOENT'
          ? `no Claude Code OAuth credentials at ${path} (log in with claude, or use a statusLine capture; on macOS the token lives in the keychain)`
          : `cannot read Claude Code credentials ${path}: ${(error as Error).message}`,
      isRetryable: true,
      cause: error,
    });
  }
  let oauth: { accessToken?: unknown; expiresAt?: unknown; scopes?: unknown } | undefined;
  try {
    oauth = (JSON.parse(text) as { claudeAiOauth?: typeof oauth })?.claudeAiOauth;
  } catch {
    oauth = undefined;
  }
  if (!oauth || typeof oauth.accessToken !== 'string' || oauth.accessToken === '') {
    throw new MeterReadError({
      sourceType: SOURCE,
      reason: 'no-credentials',
      status: 'no oauth credentials',
      location: path,
      fieldPath: 'claudeAiOauth.accessToken',
      message: `${path}: no claudeAiOauth.accessToken string (expected the file Claude Code writes at login)`,
      isRetryable: true,
    });
  }
  return {
    path,
    accessToken: oauth.accessToken,
    ...(typeof oauth.expiresAt === 'number' ? { expiresAt: oauth.expiresAt } : {}),
    ...(Array.isArray(oauth.scopes)
      ? { scopes: oauth.scopes.filter((s): s is string => typeof s === 'string') }
      : {}),
  };
}

/** One window of the usage endpoint's answer. */
interface UsageWindow {
  readonly utilization?: number | null;
  readonly resets_at?: string | null;
}

/**
 * Reads the account's usage from `GET <baseUrl>/api/oauth/usage` (research §1.5): `five_hour`
 * and `seven_day` `{utilization (0–100), resets_at (ISO)}` become the `five_hour` and `weekly`
 * windows. A window that is null (or has no utilization) is left out; a null `resets_at`
 * (before first use) gives a window without a reset. Per-model weekly windows
 * (`seven_day_opus`, …) are ignored: bullswarm paces the account-wide week.
 *
 * Errors are `MeterReadError`s: `http-status` with `status` `http <code>` (429 and 5xx
 * retryable; 401/403 not), `network`, `bad-response`, and the credential problems
 * (`no-credentials`, `token-expired`, `missing-scope`) found before any request is made.
 */
export async function readClaudeOAuthUsage(
  configDir: string,
  settings: ClaudeOAuthUsageSettings,
): Promise<{ windows: MeterWindow[]; readAt: number }> {
  return requestClaudeOAuthUsage(await readClaudeCredentials(configDir), settings);
}

/** {@link readClaudeOAuthUsage} with credentials already read by {@link readClaudeCredentials}. */
export async function requestClaudeOAuthUsage(
  credentials: ClaudeCredentials,
  settings: ClaudeOAuthUsageSettings,
): Promise<{ windows: MeterWindow[]; readAt: number }> {
  if (credentials.expiresAt !== undefined && credentials.expiresAt <= settings.now()) {
    throw new MeterReadError({
      sourceType: SOURCE,
      reason: 'token-expired',
      status: 'oauth token expired',
      location: credentials.path,
      message: `the Claude Code OAuth token in ${credentials.path} has expired (claude refreshes it on its next run)`,
      isRetryable: true,
    });
  }
  if (credentials.scopes !== undefined && !credentials.scopes.includes('user:profile')) {
    throw new MeterReadError({
      sourceType: SOURCE,
      reason: 'missing-scope',
      status: 'missing scope user:profile',
      location: credentials.path,
      message: `the Claude Code OAuth token in ${credentials.path} lacks scope user:profile, which the usage endpoint needs (tokens from claude setup-token are inference-only)`,
      isRetryable: false,
    });
  }
  const url = new URL(CLAUDE_USAGE_PATH, settings.baseUrl ?? CLAUDE_USAGE_BASE_URL).toString();
  const fetchImpl = settings.fetch ?? fetch;
  const timeout = AbortSignal.timeout(settings.timeoutMs ?? 10_000);
  const signal = settings.signal ? AbortSignal.any([settings.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'GET',
      headers: {
        authorization: `Bearer ${credentials.accessToken}`,
        'anthropic-beta': 'oauth-2025-04-20',
        accept: 'application/json',
        'user-agent': 'bullswarm-meters',
      },
      signal,
    });
  } catch (error) {
    const timedOut = (error as Error)?.name === 'TimeoutError';
    throw new MeterReadError({
      sourceType: SOURCE,
      reason: 'network',
      status: timedOut ? 'usage endpoint timeout' : 'usage endpoint unreachable',
      location: url,
      message: `GET ${url} failed: ${timedOut ? 'timed out' : (error as Error).message}`,
      isRetryable: true,
      // The cause of a fetch failure carries no request headers, so the token stays out of it.
      cause: error,
    });
  }
  const readAt = settings.now();
  if (!response.ok) {
    await response.body?.cancel();
    const status = response.status;
    throw new MeterReadError({
      sourceType: SOURCE,
      reason: 'http-status',
      status: `http ${status}`,
      location: url,
      httpStatus: status,
      message:
        status === 401
          ? `GET ${url}: 401 (the OAuth token was rejected; run claude to log in again)`
          : status === 403
            ? `GET ${url}: 403 (the OAuth token lacks scope user:profile or was revoked)`
            : status === 429
              ? `GET ${url}: 429 (the usage endpoint is polled too often; the last reading is held)`
              : `GET ${url}: HTTP ${status}`,
      isRetryable: status === 408 || status === 429 || status >= 500,
    });
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw badResponse(url, '(root)', 'the body is not JSON', error);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badResponse(url, '(root)', 'expected an object with five_hour and seven_day');
  }
  const record = body as Record<string, unknown>;
  const windows: MeterWindow[] = [];
  for (const [field, kind] of [
    ['five_hour', 'five_hour'],
    ['seven_day', 'weekly'],
  ] as const) {
    const value = record[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'object') throw badResponse(url, field, 'expected an object or null');
    const { utilization, resets_at: resetsAtText } = value as UsageWindow;
    if (utilization === undefined || utilization === null) continue;
    if (typeof utilization !== 'number' || !Number.isFinite(utilization)) {
      throw badResponse(url, `${field}.utilization`, 'expected a number (percent 0-100) or null');
    }
    let resetsAt: number | undefined;
    if (resetsAtText !== undefined && resetsAtText !== null) {
      resetsAt = typeof resetsAtText === 'string' ? Date.parse(resetsAtText) : Number.NaN;
      if (!Number.isFinite(resetsAt)) {
        throw badResponse(url, `${field}.resets_at`, 'expected an ISO-8601 time or null');
      }
    }
    windows.push({
      kind,
      usedPct: Math.max(0, utilization),
      ...(resetsAt === undefined ? {} : { resetsAt }),
      windowMinutes: DEFAULT_WINDOW_MINUTES[kind],
    });
  }
  return { windows, readAt };
}

function badResponse(url: string, fieldPath: string, detail: string, cause?: unknown): MeterReadError {
  return new MeterReadError({
    sourceType: SOURCE,
    reason: 'bad-response',
    status: 'bad usage response',
    location: url,
    fieldPath,
    message: `GET ${url}: ${fieldPath}: ${detail}`,
    isRetryable: true,
    cause,
  });
}
