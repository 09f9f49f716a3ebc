export { findCallerMarker, isCallerEnv, isCallerMarker } from './caller-markers';
export {
  type ConnectorManifest,
  type ConnectorManifestInput,
  connectorManifestJsonSchema,
  connectorManifestSchema,
} from './connector-manifest-schema';
export {
  createManifestConnector,
  DEFAULT_ACCOUNT,
  defaultModelForTier,
  type ManifestConnector,
  poolCredentialGroup,
  renderMeterSource,
} from './create-manifest-connector';
export { type ActivitySpec, createLineActivity, eventNames } from './line-activity';
export { formatFieldPath, parseConnectorManifest } from './parse-connector-manifest';
export { checkTemplate, renderTemplate, TEMPLATE_VARIABLES, type TemplateValues } from './template';
export { checkVersionRange, findVersion, satisfiesVersionRange } from './version-range';
