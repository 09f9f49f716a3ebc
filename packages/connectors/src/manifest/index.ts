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
  isCallerEnv,
  type ManifestConnector,
  poolCredentialGroup,
  renderMeterSource,
} from './create-manifest-connector';
export { formatFieldPath, parseConnectorManifest } from './parse-connector-manifest';
export { checkTemplate, renderTemplate, TEMPLATE_VARIABLES, type TemplateValues } from './template';
