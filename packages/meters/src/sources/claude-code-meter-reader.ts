import { MeterReadError } from '../errors/meter-read-error';
import type { ParsedMeterReading } from '../reading/parse-meter-reading';
import { type ClaudeCredentials, readClaudeCredentials, requestClaudeOAuthUsage } from './claude-oauth-usage';
import { claudeStatuslinePath } from './claude-statusline';
import { type MeterReadContext, type MeterReader, type MeterReadResult, readingResult } from './meter-reader';
import { readMeterFile } from './read-meter-file';
import { resolveAccountDirectory } from './resolve-account-directory';

/** Settings of the Claude Code reader. */
export interface ClaudeCodeMeterReaderSettings {
  /**
   * The account's config directory (CLAUDE_CONFIG_DIR), may use templates. Empty falls back to
   * the account's `$CLAUDE_CONFIG_DIR`, then `<userHome>/.claude`.
   */
  readonly configDir?: string;
  /** Origin of the OAuth usage endpoint (default `https://api.anthropic.com`); tests use a loopback server. */
  readonly usageBaseUrl?: string;
  /** Usage request timeout; default 10 s. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  /**
   * A statusLine capture younger than this is used instead of calling the usage endpoint
   * (which answers 429 when polled often). Default 10 minutes.
   */
  readonly statuslineMaxAgeMs?: number;
}

const DEFAULT_STATUSLINE_MAX_AGE_MS = 10 * 60_000;

/**
 * Reads a Claude Code account's meter. In order:
 * 1. a statusLine capture (`<configDir>/bullswarm-statusline.json`, see
 *    `captureClaudeStatusline`) younger than `statuslineMaxAgeMs` — no network;
 * 2. the OAuth usage endpoint with the token in `<configDir>/.credentials.json`;
 * 3. with no credentials file at all (e.g. macOS, where the token is in the keychain), a
 *    statusLine capture of any age — its `readAt` says how old it is.
 * Errors of the endpoint (429, 401, 403, network) are thrown as `MeterReadError`s; the meter
 * service holds the last good reading.
 */
export function createClaudeCodeMeterReader(settings: ClaudeCodeMeterReaderSettings = {}): MeterReader {
  return {
    sourceType: 'claude-code',
    async read(context: MeterReadContext): Promise<MeterReadResult> {
      const configDir = resolveAccountDirectory(settings.configDir, context, 'CLAUDE_CONFIG_DIR', '.claude');
      const now = context.now();
      const capture = await readCapture(configDir);
      const maxAge = settings.statuslineMaxAgeMs ?? DEFAULT_STATUSLINE_MAX_AGE_MS;
      if (capture?.readAt !== undefined && now - capture.readAt <= maxAge) return readingResult(capture);
      let credentials: ClaudeCredentials;
      try {
        credentials = await readClaudeCredentials(configDir);
      } catch (error) {
        if (capture && MeterReadError.isInstance(error) && error.reason === 'no-credentials')
          return readingResult(capture);
        throw error;
      }
      const usage = await requestClaudeOAuthUsage(credentials, {
        now: context.now,
        ...(settings.usageBaseUrl === undefined ? {} : { baseUrl: settings.usageBaseUrl }),
        ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
        ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      return { kind: 'reading', windows: usage.windows, readAt: usage.readAt };
    },
  };
}

async function readCapture(configDir: string): Promise<ParsedMeterReading | undefined> {
  const path = claudeStatuslinePath(configDir);
  try {
    return await readMeterFile(path, 'claude-code', `Claude statusLine capture ${path}`);
  } catch (error) {
    if (MeterReadError.isInstance(error) && error.reason === 'no-file') return undefined;
    throw error;
  }
}
