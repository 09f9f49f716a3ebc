import type { ConnectorV1OutputParser } from '../spec/v1';
import { handleClaudeEvent } from './claude-stream-json-parser';
import { countEvent, createDocumentParser, type ParseState, parseJsonObject } from './parse-state';

/**
 * Claude Code `-p --output-format json`: one `result` object, or — with `--verbose` — a JSON
 * array of every message with the result last (research §1.1). Either way the last
 * `type=="result"` decides. Output that is not one JSON document is read line by line.
 */
export function createClaudeJsonParser(): ConnectorV1OutputParser {
  return createDocumentParser((text, state) => {
    const trimmed = text.trim();
    if (trimmed === '') return;
    let document: unknown;
    try {
      document = JSON.parse(trimmed);
    } catch {
      readLines(trimmed, state);
      return;
    }
    const events = Array.isArray(document) ? document : [document];
    for (const event of events) countEvent(event, state, handleClaudeEvent);
  });
}

function readLines(text: string, state: ParseState): void {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    countEvent(parseJsonObject(line), state, handleClaudeEvent);
  }
}
