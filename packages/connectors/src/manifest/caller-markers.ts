import type { ConnectorV1 } from '../spec/v1/connector-v1';

/**
 * The one rule for caller markers (a connector's `callerEnv`, e.g. `CLAUDECODE`): a marker names
 * an environment variable, and a marker ending in `*` names every variable with that prefix
 * (`FOO_AGENT_*`). Used both to recognise the CLI that invoked bullswarm (a marker variable is
 * set, not empty) and to strip those variables from an agent's environment.
 */
export function isCallerMarker(name: string, markers: readonly string[]): boolean {
  return markers.some((marker) => markerNames(marker, name));
}

/** The first of `markers` that is set (not empty) in `env`, or undefined. */
export function findCallerMarker(
  markers: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return markers.find((marker) =>
    marker.endsWith('*')
      ? Object.entries(env).some(
          ([name, value]) => markerNames(marker, name) && value !== undefined && value !== '',
        )
      : env[marker] !== undefined && env[marker] !== '',
  );
}

/** Whether `env` shows that this connector's CLI is the caller (one of its `callerEnv` markers is set). */
export function isCallerEnv(
  connector: ConnectorV1,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return findCallerMarker(connector.callerEnv, env) !== undefined;
}

function markerNames(marker: string, name: string): boolean {
  return marker.endsWith('*') ? name.startsWith(marker.slice(0, -1)) : name === marker;
}
