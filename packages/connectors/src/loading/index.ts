export {
  BUILTIN_MANIFESTS_FILE,
  BUILTIN_MANIFESTS_FORMAT,
  type BuiltinManifestEntry,
  type BuiltinManifestsFile,
  readBuiltinManifestsFile,
  writeBuiltinManifestsFile,
} from './builtin-manifests-file';
export {
  CONNECTOR_PACKAGE_NAME,
  type ConfiguredConnectorEntry,
  connectorEntryName,
} from './configured-connector-entry';
export { defaultBuiltinProvidersDirectory, loadBuiltinConnectors } from './load-builtin-connectors';
export {
  loadConfiguredConnectors,
  type ResolvedConnectorEntry,
  resolveConnectorEntry,
} from './load-configured-connectors';
export { type LoadConnectorsOptions, type LoadedConnectors, loadConnectors } from './load-connectors';
export { loadHomeConnectors } from './load-home-connectors';
export { loadManifestFile } from './load-manifest-file';
export type { ConnectorLoadResult, ConnectorOrigin, LoadedConnector } from './loaded-connector';
