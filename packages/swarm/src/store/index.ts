export { type CreateSwarmOptions, createSwarm, type Swarm } from './create-swarm';
export type { SwarmContext } from './swarm-context';
export { SWARM_NAMESPACE, swarmMigrations } from './swarm-migrations';
