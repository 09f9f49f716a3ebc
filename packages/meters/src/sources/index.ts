export { type ClaudeCodeMeterReaderSettings, createClaudeCodeMeterReader } from './claude-code-meter-reader';
export {
  CLAUDE_USAGE_BASE_URL,
  CLAUDE_USAGE_PATH,
  type ClaudeOAuthUsageSettings,
  readClaudeOAuthUsage,
} from './claude-oauth-usage';
export { CLAUDE_STATUSLINE_FILE, captureClaudeStatusline, claudeStatuslinePath } from './claude-statusline';
export {
  type CodexRateLimitsReading,
  type CodexRolloutMeterReaderSettings,
  createCodexRolloutMeterReader,
  findNewestCodexRateLimits,
} from './codex-rollout-meter-reader';
export {
  type CommandMeterReaderSettings,
  createCommandMeterReader,
  DEFAULT_COMMAND_TIMEOUT_MS,
} from './command-meter-reader';
export { createMeterReader, type MeterReaderOptions } from './create-meter-reader';
export { createFileMeterReader, type FileMeterReaderSettings } from './file-meter-reader';
export { createManualMeterReader, createNoneMeterReader } from './manual-meter-reader';
export type { MeterReadContext, MeterReader, MeterReadResult } from './meter-reader';
export { readMeterFile } from './read-meter-file';
