import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type BullswarmMcpServer, createBullswarmMcpServer } from './create-server';
import type { BullswarmMcpOptions } from './mcp-options';

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions extends BullswarmMcpOptions {
  /** Ends the server (the CLI fires it on SIGINT/SIGTERM). */
  readonly signal?: AbortSignal;
  readonly stdin?: NodeJS.ReadableStream & { pause(): unknown };
  readonly stdout?: NodeJS.WritableStream;
}

/**
 * Serves bullswarm over stdio (newline-delimited JSON-RPC on stdin/stdout) until the client closes
 * stdin, the transport closes, or `signal` fires; then stops every run (agents ended, ledger
 * entries released) and resolves once all of them have settled. Only protocol messages are
 * written to stdout; everything else goes through `options.log` (stderr).
 */
export async function serveStdio(options: ServeStdioOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const mcp: BullswarmMcpServer = createBullswarmMcpServer(options);
  const transport = new StdioServerTransport(stdin as never, stdout as never);
  let ended: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    ended = resolve;
  });
  transport.onclose = () => ended();
  stdin.once('end', () => ended());
  stdin.once('close', () => ended());
  if (options.signal?.aborted) ended();
  options.signal?.addEventListener('abort', () => ended(), { once: true });
  await mcp.server.connect(transport);
  options.log(`bullswarm mcp: serving on stdio (pid ${process.pid})`);
  await done;
  await mcp.shutdown();
  // Let the answers of the calls that just settled be written before the transport closes.
  await new Promise((resolve) => setImmediate(resolve));
  await mcp.server.close().catch(() => undefined);
}
