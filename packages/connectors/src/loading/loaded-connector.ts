import type { ConnectorLoadError, DuplicateConnectorError } from '../errors';
import type { ConnectorV1 } from '../spec/v1';

/** Where a connector was found. Later origins override earlier ones: builtin < home < configured. */
export type ConnectorOrigin = 'builtin' | 'home' | 'configured';

/** One loaded connector and where it came from. */
export type LoadedConnector = {
  readonly connector: ConnectorV1;
  readonly origin: ConnectorOrigin;
  /** The manifest file or package specifier it was loaded from. */
  readonly source: string;
};

/** The result of one loader: what loaded, and one error per connector that did not. */
export type ConnectorLoadResult = {
  readonly connectors: readonly LoadedConnector[];
  readonly errors: readonly (ConnectorLoadError | DuplicateConnectorError)[];
};
