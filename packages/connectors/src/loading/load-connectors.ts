import { ConnectorLoadError, DuplicateConnectorError } from '../errors';
import type { ConnectorV1 } from '../spec/v1';
import type { ConfiguredConnectorEntry } from './configured-connector-entry';
import { loadBuiltinConnectors } from './load-builtin-connectors';
import { loadConfiguredConnectors } from './load-configured-connectors';
import { loadHomeConnectors } from './load-home-connectors';
import type { ConnectorOrigin, LoadedConnector } from './loaded-connector';

/** Options of {@link loadConnectors}. */
export type LoadConnectorsOptions = {
  /** `$BULLSWARM_HOME`; its `providers/*\/connector.json` are loaded. */
  readonly home?: string;
  /** The home config's `connectors` entries (`state.json` `config.connectors`; see {@link ConfiguredConnectorEntry}). */
  readonly configEntries?: readonly ConfiguredConnectorEntry[];
  /**
   * Where hand-written entries (a bare package name, a relative path) resolve from; required with
   * `configEntries`. Entries written by `bullswarm connectors add` are absolute and ignore it.
   */
  readonly projectDir?: string;
  /** Overrides the built-in providers directory (tests). */
  readonly builtinDirectory?: string;
};

/** Every connector available, by id, with what failed and what was overridden. */
export type LoadedConnectors = {
  readonly connectors: ReadonlyMap<string, ConnectorV1>;
  /** Where each connector in `connectors` came from. */
  readonly sources: ReadonlyMap<string, LoadedConnector>;
  readonly errors: readonly (ConnectorLoadError | DuplicateConnectorError)[];
  /** Overrides, e.g. `home connector "claude-code" (…) replaces the builtin one (…)`. */
  readonly warnings: readonly string[];
};

/**
 * Loads built-in, home and configured connectors and merges them by id.
 *
 * Precedence: builtin < home < configured. A connector with the id of one from an earlier origin
 * replaces it, with a warning (so a home `providers/claude-code/connector.json` customises the
 * built-in one). Two connectors of the SAME origin with one id are ambiguous: both are dropped
 * and a {@link DuplicateConnectorError} is reported (an earlier origin's connector with that id,
 * if any, stays). Malformed connectors become errors; the others still load.
 */
export async function loadConnectors(options: LoadConnectorsOptions = {}): Promise<LoadedConnectors> {
  const results = [
    await loadBuiltinConnectors(
      options.builtinDirectory === undefined ? {} : { directory: options.builtinDirectory },
    ),
    options.home === undefined ? { connectors: [], errors: [] } : await loadHomeConnectors(options.home),
  ];
  if (options.configEntries && options.configEntries.length > 0) {
    if (options.projectDir === undefined) {
      throw new ConnectorLoadError({
        source: 'loadConnectors',
        reason: 'invalid-connector',
        fieldPath: 'projectDir',
        message: 'projectDir is required when configEntries are given (hand-written entries resolve from it)',
      });
    }
    results.push(await loadConfiguredConnectors(options.configEntries, options.projectDir));
  }

  const errors = results.flatMap((result) => result.errors);
  const warnings: string[] = [];
  const sources = new Map<string, LoadedConnector>();
  const origins: ConnectorOrigin[] = ['builtin', 'home', 'configured'];
  for (const origin of origins) {
    const ofOrigin = results
      .flatMap((result) => result.connectors)
      .filter((loaded) => loaded.origin === origin);
    const byId = new Map<string, LoadedConnector[]>();
    for (const loaded of ofOrigin) {
      const list = byId.get(loaded.connector.connectorId) ?? [];
      list.push(loaded);
      byId.set(loaded.connector.connectorId, list);
    }
    for (const [id, list] of byId) {
      if (list.length > 1) {
        errors.push(new DuplicateConnectorError({ connectorId: id, sources: list.map((l) => l.source) }));
        continue;
      }
      const loaded = list[0] as LoadedConnector;
      const previous = sources.get(id);
      if (previous) {
        warnings.push(
          `${origin} connector "${id}" (${loaded.source}) replaces the ${previous.origin} one (${previous.source})`,
        );
      }
      sources.set(id, loaded);
    }
  }
  const connectors = new Map([...sources].map(([id, loaded]) => [id, loaded.connector]));
  return { connectors, sources, errors, warnings };
}
