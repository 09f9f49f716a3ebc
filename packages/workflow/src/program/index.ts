export { lastJsonObject } from './answer-json';
export {
  isFileProblem,
  loadProgramFile,
  type ValidateProgramFileResult,
  validateProgramFile,
} from './load-program';
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
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_RETRY_ATTEMPTS,
  type ForEachInput,
  forEachSchema,
  type GateInput,
  gateSchema,
  INPUT_NAME_PATTERN,
  MAX_CONCURRENCY,
  MAX_RETRY_ATTEMPTS,
  PROGRAM_SCHEMA_VERSION,
  type ProgramStepInput,
  programJsonSchema,
  programSchema,
  programStepSchema,
  STEP_ID_PATTERN,
  type StepRouteInput,
  stepRouteSchema,
  type WorkflowProgramInput,
} from './program-schema';
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
export {
  MAX_PROGRAM_DEPTH,
  type ValidateProgramOptions,
  type ValidateProgramResult,
  validateProgram,
} from './validate-program';
export type {
  StepForEach,
  StepGate,
  StepRoute,
  WorkflowInput,
  WorkflowProgram,
  WorkflowStep,
} from './workflow-program';
