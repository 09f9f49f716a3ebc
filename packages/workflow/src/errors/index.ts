export {
  type ProgramProblem,
  type ProgramProblemKind,
  WorkflowError,
  type WorkflowErrorKind,
  type WorkflowErrorOptions,
} from './workflow-error';
