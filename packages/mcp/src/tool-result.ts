import { BullswarmError } from '@bullswarm/pacing';
import { redactSecrets } from '@bullswarm/swarm';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A tool's result: the lines a person reads first (what the CLI prints), then the same JSON
 * object the CLI's `--json` prints, as a second text block.
 */
export function jsonResult(lines: readonly string[], value: unknown, isError = false): CallToolResult {
  const content: CallToolResult['content'] = [];
  if (lines.length > 0) content.push({ type: 'text', text: lines.join('\n') });
  content.push({ type: 'text', text: JSON.stringify(value, null, 2) });
  return isError ? { content, isError: true } : { content };
}

/**
 * Any error a tool threw, as an MCP tool error (`isError`), worded as the CLI words it on stderr:
 * `error: <message>`, with every secret in the message redacted. The server keeps running. An error
 * that is not bullswarm's (a bug, something the OS said) is also logged to stderr with its stack.
 */
export function toolError(
  error: unknown,
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
): CallToolResult {
  const message = redactSecrets(error instanceof Error ? error.message : String(error), env);
  if (!BullswarmError.isInstance(error) && error instanceof Error && error.stack) {
    log(`bullswarm mcp: unexpected error: ${redactSecrets(error.stack, env)}`);
  }
  return { content: [{ type: 'text', text: `error: ${message}` }], isError: true };
}

/** A tool error with the CLI's own words (a usage rule checked here, not in a library). */
export function usageError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: `error: ${message}` }], isError: true };
}
