/**
 * @bullswarm/meters — where a pool's used% and reset numbers come from.
 *
 * Readers for every connector-v1 meter source (`codex-rollout`, `claude-code`, `command`,
 * `file`, `manual`, `none`), the bullswarm meter reading format, and the meter service: a
 * TTL cache, a stale hold with back-off after failed polls, the usage-limit rule, and retained
 * readings for spend rates.
 */
export { MeterError, MeterReadError, type MeterReadErrorReason, MeterTemplateError } from './errors';
export {
  classifyWindowMinutes,
  DEFAULT_WINDOW_MINUTES,
  epochToMs,
  formatIssuePath,
  type MeterReading,
  type MeterReadingOrigin,
  type MeterReadingWindow,
  meterReadingJsonSchema,
  meterReadingSchema,
  meterReadingWindowSchema,
  type ParsedMeterReading,
  parseMeterReading,
  parseMeterReadingText,
  WINDOW_KINDS,
} from './reading';
export {
  applySubscriptionOverride,
  backoffDelayMs,
  createMeterService,
  DEFAULT_METER_BACKOFF,
  MAX_METER_ERROR_DETAIL_CHARS,
  type MeterBackoff,
  type MeterService,
  type MeterServiceSettings,
  meterErrorDetail,
  type PoolMeterRequest,
  type SubscriptionOverride,
  type UsageLimitMark,
  type UsageLimitNotice,
} from './service';
export {
  CLAUDE_STATUSLINE_FILE,
  CLAUDE_USAGE_BASE_URL,
  CLAUDE_USAGE_PATH,
  type ClaudeCodeMeterReaderSettings,
  type ClaudeOAuthUsageSettings,
  type CodexRateLimitsReading,
  type CodexRolloutMeterReaderSettings,
  type CommandMeterReaderSettings,
  captureClaudeStatusline,
  claudeStatuslinePath,
  createClaudeCodeMeterReader,
  createCodexRolloutMeterReader,
  createCommandMeterReader,
  createFileMeterReader,
  createManualMeterReader,
  createMeterReader,
  createNoneMeterReader,
  DEFAULT_COMMAND_TIMEOUT_MS,
  type FileMeterReaderSettings,
  findNewestCodexRateLimits,
  type MeterReadContext,
  type MeterReader,
  type MeterReaderOptions,
  type MeterReadResult,
  readClaudeOAuthUsage,
  readMeterFile,
} from './sources';
export { accountOfPoolId, expandTemplate, type TemplateValues } from './template';
