export { checkPlanTiers, knownPlanTiers } from './check-plan-tiers';
export { appendJournal, type JournalEntry, type JournalEntryType, readJournal } from './journal';
export {
  loadPlan,
  type PlanLocation,
  type PlanRef,
  parsePlanFile,
  planLabel,
  planLocation,
  planRecordPrefixes,
  type ResolvePlanOptions,
  resolvePlanRef,
} from './plan-location';
export {
  contractDigest,
  DEFAULT_PLAN_HORIZON,
  dependentsOf,
  gateSchema,
  PLAN_ID_PATTERN,
  type Plan,
  type PlanGate,
  type PlanInput,
  type PlanTask,
  parseHorizon,
  planContractSchema,
  planHorizonMs,
  planSchema,
  planTaskSchema,
} from './plan-schema';
export { planStatus, type TaskState, type TaskStatus } from './plan-status';
export { formatPath } from './read-json-file';
