import type { ConnectorV1OutputParser } from '../spec/v1';
import { countKind, createDocumentParser } from './parse-state';

/**
 * Plain text: the whole stdout is the answer (surrounding whitespace trimmed). Nothing on stdout
 * is ever read as a notice; failures are classified from the exit status and stderr.
 */
export function createTextParser(): ConnectorV1OutputParser {
  return createDocumentParser((text, state) => {
    const answer = text.trim();
    state.answer = answer;
    const lines = answer === '' ? 0 : answer.split('\n').length;
    state.total = lines;
    for (let i = 0; i < lines; i += 1) countKind(state, 'line');
  });
}
