export * from './workflow-error';
