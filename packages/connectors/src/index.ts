export { BUNDLED_COMMANDS, resolveBundledCommand, SIM_CLI_PATH } from './bundled-command';
export {
  type ClassifyOptions,
  classifyOutcome,
  parseDurationPrefix,
  parseResetFromText,
  parseWaitFromText,
} from './classify';
export { type DeepReadonly, type DefineConnectorOptions, defineConnector } from './define-connector';
export * from './errors';
export * from './loading';
export * from './manifest';
export { createOutputParser, OUTPUT_FORMATS, type OutputFormat } from './parsers';
export { resolveConnector, SUPPORTED_SPECIFICATION_VERSIONS } from './resolve-connector';
export type * from './spec/v1';

export { VERSION } from './version';
