/**
 * What one complete line of an agent's output means for dispatch's clocks:
 *
 * - `progress`: the agent is working (assistant text, a tool call, a file edit, a turn event); it
 *   restarts the silence clock and ends a network wait.
 * - `noise`: the CLI is alive but not working (a reconnect notice, a keep-alive, a retry
 *   announcement, an allowed rate-limit event); it restarts nothing.
 * - `network-wait`: a noise line saying the CLI waits for the network; when such lines go on past
 *   dispatch's network-wait bound with no progress between, the attempt ends as a process failure
 *   (`<connector>: no network: "<notice>" for 2m`). `notice` is the text quoted there.
 */
export type ConnectorV1LineActivity =
  | { readonly kind: 'progress' }
  | { readonly kind: 'noise' }
  | { readonly kind: 'network-wait'; readonly notice: string };

/**
 * How a connector tells progress from noise in its CLI's output. A connector without one keeps
 * the byte rule: every byte on stdout or stderr restarts the silence clock.
 */
export type ConnectorV1Activity = {
  /** Pure: what one output line (without its newline) on `stream` means. */
  classifyLine(line: string, stream: 'stdout' | 'stderr'): ConnectorV1LineActivity;
};
