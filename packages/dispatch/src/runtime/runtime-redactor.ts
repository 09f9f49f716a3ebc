import { DEFAULT_ACCOUNT } from '@bullswarm/connectors';
import { createRedactor, type Redactor } from '@bullswarm/connectors/redact';
import type { BullswarmRuntime } from './open-runtime';

/**
 * The redactor of everything a runtime's work writes or prints (run records, workflow files, swarm
 * rows, the dashboard's and the MCP server's answers): token shapes and the values of the
 * credential-named variables of the runtime's environment and of every pool's environment — the
 * connector's account environment for the pool's account (what its agent is started with) and the
 * pool's own `env` over it (see `createRedactor` of `@bullswarm/connectors/redact`).
 */
export function runtimeRedactor(
  runtime: Pick<BullswarmRuntime, 'env' | 'state'> &
    Partial<Pick<BullswarmRuntime, 'connectors' | 'home' | 'userHome'>>,
): Redactor {
  const envs: Readonly<Record<string, string | undefined>>[] = [runtime.env];
  for (const pool of runtime.state.pools) {
    const connector = runtime.connectors?.get(pool.connector);
    if (connector !== undefined && runtime.home !== undefined && runtime.userHome !== undefined) {
      try {
        envs.push(
          connector.accountEnv({
            account: pool.account ?? DEFAULT_ACCOUNT,
            bullswarmHome: runtime.home.home,
            userHome: runtime.userHome,
          }),
        );
      } catch {
        // a template the connector cannot render: the pool's own env below still counts
      }
    }
    envs.push(pool.env ?? {});
  }
  return createRedactor(envs);
}
