/**
 * One entry of the home config's `connectors` list (`$BULLSWARM_HOME/state.json` `config.connectors`).
 *
 * - `{ package, directory }` — what `bullswarm connectors add` writes: a package named
 *   `bullswarm-connector-*` / `@scope/bullswarm-connector-*` and the absolute directory of the
 *   package itself (the folder holding its package.json). It loads the same from any directory.
 * - a string — an absolute path to a `connector.json` (also written by `connectors add`), or, as
 *   written by hand before `connectors add` existed, a package name or a relative path, both
 *   resolved from the directory bullswarm runs in.
 */
export type ConfiguredConnectorEntry =
  | string
  | {
      /** The package name, e.g. `bullswarm-connector-template`. */
      readonly package: string;
      /** The package's own directory (absolute): where its package.json is. */
      readonly directory: string;
    };

/** A package name connectors may have: `bullswarm-connector-*` or `@scope/bullswarm-connector-*`. */
export const CONNECTOR_PACKAGE_NAME: RegExp =
  /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?bullswarm-connector-[a-z0-9-._~]+$/;

/** How an entry is named in messages and in `LoadedConnector.source`: the package name or the path. */
export function connectorEntryName(entry: ConfiguredConnectorEntry): string {
  return typeof entry === 'string' ? entry : entry.package;
}
