import type { ConnectorV1MeterSource } from '@bullswarm/connectors';
import { createClaudeCodeMeterReader } from './claude-code-meter-reader';
import { createCodexRolloutMeterReader } from './codex-rollout-meter-reader';
import { createCommandMeterReader } from './command-meter-reader';
import { createFileMeterReader } from './file-meter-reader';
import { createManualMeterReader, createNoneMeterReader } from './manual-meter-reader';
import type { MeterReader } from './meter-reader';

/** Settings that are not part of a meter source: endpoints, timeouts, injectable I/O. */
export interface MeterReaderOptions {
  /** Origin of the Claude OAuth usage endpoint (default `https://api.anthropic.com`). */
  readonly claudeUsageBaseUrl?: string;
  /** Timeout of HTTP meter requests; default 10 s. */
  readonly httpTimeoutMs?: number;
  /** A Claude statusLine capture younger than this is used without calling the endpoint; default 10 min. */
  readonly claudeStatuslineMaxAgeMs?: number;
  /** The fetch implementation; default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Default timeout of `command` sources that do not set `timeoutMs`; default 10 s. */
  readonly commandTimeoutMs?: number;
  /** How many Codex rollout files to scan, newest first; default 50. */
  readonly codexMaxFiles?: number;
}

/** The reader for a connector-v1 meter source. */
export function createMeterReader(
  source: ConnectorV1MeterSource,
  options: MeterReaderOptions = {},
): MeterReader {
  switch (source.type) {
    case 'codex-rollout':
      return createCodexRolloutMeterReader({
        codexHome: source.codexHome,
        ...(options.codexMaxFiles === undefined ? {} : { maxFiles: options.codexMaxFiles }),
      });
    case 'claude-code':
      return createClaudeCodeMeterReader({
        configDir: source.configDir,
        ...(options.claudeUsageBaseUrl === undefined ? {} : { usageBaseUrl: options.claudeUsageBaseUrl }),
        ...(options.httpTimeoutMs === undefined ? {} : { timeoutMs: options.httpTimeoutMs }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        ...(options.claudeStatuslineMaxAgeMs === undefined
          ? {}
          : { statuslineMaxAgeMs: options.claudeStatuslineMaxAgeMs }),
      });
    case 'command': {
      const timeoutMs = source.timeoutMs ?? options.commandTimeoutMs;
      return createCommandMeterReader({
        command: source.command,
        ...(source.args === undefined ? {} : { args: source.args }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    }
    case 'file':
      return createFileMeterReader({ path: source.path });
    case 'manual':
      return createManualMeterReader();
    case 'none':
      return createNoneMeterReader();
    default: {
      const unknown: never = source;
      throw new TypeError(
        `unknown meter source type ${JSON.stringify((unknown as { type?: unknown }).type)}; valid: codex-rollout, claude-code, command, file, manual, none`,
      );
    }
  }
}
