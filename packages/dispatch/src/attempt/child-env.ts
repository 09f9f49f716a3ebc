import { isCallerMarker } from '@bullswarm/connectors';
import { BULLSWARM_POOL } from '../snapshots/detect-caller';

/**
 * The complete environment of an agent process: the parent's environment without any caller
 * marker (so the agent is never mistaken for the CLI that invoked bullswarm, e.g. `CLAUDECODE`
 * of a Claude Code session running bullswarm) and without the parent's `BULLSWARM_POOL`, then
 * the invocation's variables (connector env, account env, extra env, `BULLSWARM_POOL` of this
 * pool) on top. Variables with an undefined value are dropped.
 */
export function buildChildEnv(
  parentEnv: Readonly<Record<string, string | undefined>>,
  invocationEnv: Readonly<Record<string, string>>,
  callerMarkers: readonly string[],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value === undefined || name === BULLSWARM_POOL || isCallerMarker(name, callerMarkers)) continue;
    env[name] = value;
  }
  return Object.assign(env, invocationEnv);
}
