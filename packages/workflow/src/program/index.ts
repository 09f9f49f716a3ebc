export * from './answer-json';
export * from './load-program';
export {
  checkOutputSchema,
  jsonEqual,
  MAX_OUTPUT_SCHEMA_DEPTH,
  OUTPUT_SCHEMA_TYPES,
  type OutputSchema,
  type OutputSchemaProblem,
  type OutputSchemaType,
  validateOutput,
} from './output-schema';
export * from './program-schema';
export {
  formatValue,
  parseTemplateExpression,
  renderTemplate,
  resolveRef,
  TEMPLATE_FORMS,
  type TemplateRef,
  type TemplateScope,
  type TemplateToken,
  templateTokens,
} from './template';
export * from './validate-program';
export * from './workflow-program';
