/**
 * The settings {@link checkSettings} checks for the commands of the full bundle: dispatch's,
 * the workflow view's, the swarm's, doctor's, and for `bullswarm mcp` the MCP server's. A module
 * of its own so the core bundle holds none of those packages (tsup.config.ts, FULL_ONLY_MODULES).
 */
export async function checkFullBundleSettings(
  env: Readonly<Record<string, string | undefined>>,
  commandWord: string,
): Promise<void> {
  const dispatch = await import('@bullswarm/dispatch');
  dispatch.resolveWatchdogSettings(env);
  dispatch.resolveWhenReadyPollMs(env);
  const { resolveWatchPollMs } = await import('@bullswarm/workflow');
  resolveWatchPollMs(env);
  const swarm = await import('@bullswarm/swarm');
  swarm.resolveSwarmSettings(env);
  swarm.capacityThresholds(env);
  swarm.parseCapacityCaps(env);
  swarm.capacityMaxAgeMs(env);
  swarm.readSeconds(env, swarm.BULLSWARM_REMOTE_TIMEOUT_SEC, swarm.DEFAULT_REMOTE_TIMEOUT_SEC);
  const { doctorTimeoutSec } = await import('../doctor/doctor-probes');
  doctorTimeoutSec(env);
  if (commandWord === 'mcp') {
    const { resolveProgressIntervalMs } = await import('@bullswarm/mcp');
    resolveProgressIntervalMs(env);
  }
}
