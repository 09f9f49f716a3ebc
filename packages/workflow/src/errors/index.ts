export {
  type ProgramProblem,
  type ProgramProblemKind,
  WorkflowError,
  type WorkflowErrorKind,
  type WorkflowErrorOptions,
  type WorkflowOptionProblem,
} from './workflow-error';
