/**
 * A no-progress duration as the stall reason prints it: whole minutes as `<n> min` (`60 min`),
 * anything else as whole seconds `<n> s` (`90 s`, `2 s` for the short clocks tests use).
 */
export function formatNoProgressDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

/** `stalled: no output for 300s` — the silence clock's threshold, in whole seconds. */
export function formatSilenceStall(silenceMs: number): string {
  return `stalled: no output for ${Math.round(silenceMs / 1000)}s`;
}

/** `stalled: no file change for 60 min` (see {@link formatNoProgressDuration}). */
export function formatNoProgressStall(noProgressMs: number): string {
  return `stalled: no file change for ${formatNoProgressDuration(noProgressMs)}`;
}

/**
 * `codex: no network: "Reconnecting... waiting for network" for 2m` — the why of an attempt the
 * network-wait bound ended: the connector, the notice it kept printing, and the bound (whole
 * minutes as `<n>m`, else seconds as `<n>s`).
 */
export function formatNoNetwork(connectorId: string, notice: string, boundMs: number): string {
  const seconds = Math.round(boundMs / 1000);
  const bound = seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`;
  return `${connectorId}: no network: ${JSON.stringify(notice)} for ${bound}`;
}
