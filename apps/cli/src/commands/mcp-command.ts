import { format } from 'node:util';
import { type CommandContext, userHomeOf } from '../cli/command-context';
import { VERSION } from '../cli/version';
import { checkOutputSchemaPrefix } from './workflow/workflow-cli-support';

/**
 * `bullswarm mcp`: serves bullswarm as an MCP server on stdio (see @bullswarm/mcp) until the
 * client closes stdin or SIGINT/SIGTERM arrives; then every run it started is stopped (agents
 * ended, ledger entries released) before the process exits. Standard output carries only protocol
 * messages: the server's own lines, and anything a library would print with `console`, go to stderr.
 */
export async function mcpCommand(context: CommandContext): Promise<void> {
  const { resolveProgressIntervalMs, serveStdio } = await import('@bullswarm/mcp');
  const progressIntervalMs = resolveProgressIntervalMs(context.io.env);
  const log = (line: string) => context.io.err(`${line}\n`);
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => log(format(...args));
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await serveStdio({
      ...(context.homeDir === undefined ? {} : { home: context.homeDir }),
      env: context.io.env,
      cwd: context.io.cwd,
      userHome: userHomeOf(context.io),
      log,
      version: VERSION,
      checkOutputSchemaCommand: checkOutputSchemaPrefix(),
      ...(progressIntervalMs === undefined ? {} : { progressIntervalMs }),
      signal: abort.signal,
    });
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    Object.assign(console, saved);
  }
}
