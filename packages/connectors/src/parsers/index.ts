import type { ConnectorV1OutputParser } from '../spec/v1';
import { createClaudeJsonParser } from './claude-json-parser';
import { createClaudeStreamJsonParser } from './claude-stream-json-parser';
import { createCodexJsonlParser } from './codex-jsonl-parser';
import { createGeminiJsonParser, createGeminiStreamJsonParser } from './gemini-parsers';
import { createGrokJsonParser } from './grok-json-parser';
import { createOpencodeJsonParser } from './opencode-json-parser';
import { createTextParser } from './text-parser';

/** The output formats a manifest's `outputFormat` can name. */
export const OUTPUT_FORMATS = [
  'claude-stream-json',
  'claude-json',
  'codex-jsonl',
  'gemini-json',
  'gemini-stream-json',
  'opencode-json',
  'grok-json',
  'text',
] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

const factories: Record<OutputFormat, () => ConnectorV1OutputParser> = {
  'claude-stream-json': createClaudeStreamJsonParser,
  'claude-json': createClaudeJsonParser,
  'codex-jsonl': createCodexJsonlParser,
  'gemini-json': createGeminiJsonParser,
  'gemini-stream-json': createGeminiStreamJsonParser,
  'opencode-json': createOpencodeJsonParser,
  'grok-json': createGrokJsonParser,
  text: createTextParser,
};

/** A fresh streaming parser for `format`. */
export function createOutputParser(format: OutputFormat): ConnectorV1OutputParser {
  return factories[format]();
}

/** For connector authors: a JSON-events-per-line parser built from one event handler. */
export { createEventLineParser, type EventHandler, type ParseState } from './parse-state';
export {
  createClaudeJsonParser,
  createClaudeStreamJsonParser,
  createCodexJsonlParser,
  createGeminiJsonParser,
  createGeminiStreamJsonParser,
  createGrokJsonParser,
  createOpencodeJsonParser,
  createTextParser,
};
