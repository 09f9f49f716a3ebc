export { type CheckOutputSchemaResult, checkOutputSchemaFiles } from './check-output-schema-files';
