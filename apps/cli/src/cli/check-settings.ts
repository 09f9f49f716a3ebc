import { CORE_COMMANDS } from '../launcher/choose-bundle';

/** Commands that check no setting: shell completion runs on every keypress, help reads none. */
const UNCHECKED = new Set(['completion', '__complete', 'help']);

/**
 * Reads and checks every `BULLSWARM_*` setting once, before the command does anything (before a
 * run folder, a run record or a ledger entry exists): a bad value stops the command with exit 2
 * naming the variable (`InvalidEnvironmentError`), instead of every unit of a run failing later.
 *
 * Which settings: the store's (`BULLSWARM_NOW`, the shared store's heartbeat) for every command;
 * for the commands of the full bundle (run, demo, setup, doctor, dashboard, mcp, the workflow and
 * swarm commands — everything that can start an agent, or drive a workflow or the swarm) also
 * dispatch's (`BULLSWARM_WORKER_*_SEC`, `BULLSWARM_THROTTLE_BACKOFF_SEC`,
 * `BULLSWARM_PROBE_TIMEOUT_SEC`, `BULLSWARM_WHEN_READY_POLL_SEC`), the workflow view's
 * (`BULLSWARM_WORKFLOW_WATCH_POLL_SEC`), the swarm's (its clocks, the capacity thresholds, caps and
 * age, `BULLSWARM_REMOTE_TIMEOUT_SEC`) and doctor's; `bullswarm mcp` also checks the MCP server's
 * (`BULLSWARM_MCP_PROGRESS_SEC`). The read-only commands of the core bundle (`pools`,
 * `assignments`, `strategy`, `meters`, `connectors`) start no agent and read only the store's.
 * Each is checked by the function that reads it, so there is one rule per variable.
 */
export async function checkSettings(
  env: Readonly<Record<string, string | undefined>>,
  commandWord: string | undefined,
): Promise<void> {
  if (commandWord === undefined || UNCHECKED.has(commandWord)) return;
  const store = await import('@bullswarm/store');
  store.createClock(env);
  store.resolveHeartbeatSettings(env);
  if (CORE_COMMANDS.has(commandWord)) return;
  // The full bundle's part is a module of its own, left out of the core bundle (tsup.config.ts).
  const { checkFullBundleSettings } = await import('./check-full-bundle-settings');
  await checkFullBundleSettings(env, commandWord);
}
