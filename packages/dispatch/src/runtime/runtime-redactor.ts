import { createRedactor, type Redactor } from '@bullswarm/connectors/redact';
import type { BullswarmRuntime } from './open-runtime';

/**
 * The redactor of everything a runtime's work writes or prints (run records, workflow files, swarm
 * rows, the dashboard's and the MCP server's answers): token shapes and the values of the
 * credential-named variables of the runtime's environment and of every pool's account environment
 * (see `createRedactor` of `@bullswarm/connectors/redact`).
 */
export function runtimeRedactor(runtime: Pick<BullswarmRuntime, 'env' | 'state'>): Redactor {
  return createRedactor([runtime.env, ...runtime.state.pools.map((pool) => pool.env ?? {})]);
}
