export * from './check-output-schema-files';
