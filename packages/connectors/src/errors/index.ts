export { BullswarmError, hasErrorMarker } from './bullswarm-error';
export { ConnectorLoadError, type ConnectorLoadErrorReason } from './connector-load-error';
export { ConnectorTemplateError } from './connector-template-error';
export { DuplicateConnectorError } from './duplicate-connector-error';
export { InvalidConnectorError } from './invalid-connector-error';
export { UnsupportedConnectorVersionError } from './unsupported-connector-version-error';
