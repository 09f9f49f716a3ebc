import type { ConnectorV1 } from '@bullswarm/connectors';

const MARKER = 'bullswarm-model-probe-marker';
const known = new WeakMap<ConnectorV1, boolean>();

/**
 * Whether a model a tier rung names reaches the connector's CLI: the invocation built with a
 * model carries it (a model flag such as `--model {{model}}`, an environment variable, stdin).
 * A connector whose CLI takes no model runs the CLI's own default model on every rung, whatever
 * its profiles call it; such a rung is not `explicit`, so it is never liveness-probed (docs/routing.md,
 * "Free-model liveness probe": a rung that uses the CLI default is never probed). Invocations are
 * pure (connector-v1), so the answer is computed once per connector.
 */
export function modelReachesCli(connector: ConnectorV1): boolean {
  const cached = known.get(connector);
  if (cached !== undefined) return cached;
  let reaches: boolean;
  try {
    const invocation = connector.buildInvocation({
      prompt: 'x',
      model: MARKER,
      cwd: '/',
      addDirs: [],
      accountEnv: {},
      bullswarmHome: '/',
      userHome: '/',
    });
    reaches = JSON.stringify(invocation).includes(MARKER);
  } catch {
    // A connector that cannot build this invocation is asked nothing more here: as before, named.
    reaches = true;
  }
  known.set(connector, reaches);
  return reaches;
}
