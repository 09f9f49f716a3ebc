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
  dependentsOf,
  gateSchema,
  PLAN_ID_PATTERN,
  type Plan,
  type PlanGate,
  type PlanInput,
  type PlanTask,
  planContractSchema,
  planSchema,
  planTaskSchema,
} from './plan-schema';
export { planStatus, type TaskState, type TaskStatus } from './plan-status';
export { formatPath } from './read-json-file';
