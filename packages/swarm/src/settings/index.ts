export { checkAddress, LEAD_ADDRESS, parseAddressList, resolveSelfAddress } from './agent-address';
export {
  BULLSWARM_AGENT,
  BULLSWARM_AGENT_STALE_SEC,
  BULLSWARM_ASK_TIMEOUT_SEC,
  BULLSWARM_LEASE_TTL_SEC,
  BULLSWARM_PLAN,
  DEFAULT_AGENT_STALE_SEC,
  DEFAULT_ASK_TIMEOUT_SEC,
  DEFAULT_LEASE_TTL_SEC,
  readSeconds,
  resolveSwarmSettings,
  type SwarmEnv,
  type SwarmSettings,
} from './swarm-env';
