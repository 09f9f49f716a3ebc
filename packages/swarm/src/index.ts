/**
 * @bullswarm/swarm — swarm autonomy: capacity verdicts, account leases, lead succession with
 * epochs and fencing, notices, handoff packets, escalations and the drill.
 */
export {
  type AgentRecord,
  type AgentRegistry,
  createAgentRegistry,
  type Reachability,
  type RegisterAgentOptions,
} from './agents/agent-registry';
export {
  DrillFailedError,
  EscalationClassError,
  FencingError,
  GitStateError,
  type HandoffMismatch,
  HandoffMismatchError,
  LeadRecordError,
  type LeadRecordRefusal,
  type LeaseRefusal,
  LeaseRefusedError,
  NoAccountError,
  type NoAccountOutcomeKind,
  PlanFileError,
  type RemoteRefusal,
  RemoteStateError,
  type SecretFinding,
  SecretInPacketError,
  SwarmInputError,
  TaskClaimError,
  type TaskClaimRefusal,
} from './errors';
export {
  createEscalationBook,
  ESCALATION_CLASSES,
  type Escalation,
  type EscalationBook,
  type EscalationClass,
  parseEscalationClass,
} from './escalations/escalation-book';
export {
  checkoutRoot,
  findRepositoryRoot,
  type GitResult,
  git,
  readWorkState,
  repositoryRoot,
  stripRemoteCredentials,
  type TryGitOptions,
  tryGit,
  type WorkState,
} from './git';
export { createHandoffBook, type HandoffBook, type HandoffRecord } from './handoff/handoff-book';
export {
  createLeadBook,
  type LeadBook,
  type LeadEvent,
  type LeadershipCheck,
  type LeadRecord,
  type SuccessionCandidate,
  type SuccessionSource,
  TAKEOVER_REASONS,
  type TakeoverReason,
} from './leads/lead-book';
export {
  BULLSWARM_REMOTE_TIMEOUT_SEC,
  checkRemoteBeforeFence,
  DEFAULT_REMOTE_TIMEOUT_SEC,
  type RemoteCheck,
  type RemoteRefCheck,
} from './leads/remote-check';
export { type FencedRun, type RunFencedOptions, runFenced } from './leads/run-fenced';
export {
  type AcquireLeaseOptions,
  createLeaseBook,
  type Lease,
  type LeaseBook,
  type LeaseEvent,
  releasePlanLeasesIn,
} from './leases/lease-book';
export {
  createNoticeBox,
  insertNotice,
  MAX_NOTICE_CHARS,
  NOTICE_KINDS,
  type Notice,
  type NoticeBox,
  type NoticeKind,
  type SendNoticeOptions,
} from './notices/notice-box';
export { createParkBook, type Park, type ParkBook } from './parks/park-book';
export {
  formatHorizon,
  judgeNoAccount,
  type NoAccountJudgement,
  type NoAccountOutcome,
  noAccountError,
  parkWhenExhausted,
  resumeAfterPark,
} from './parks/park-when-exhausted';
export {
  appendJournal,
  checkPlanTiers,
  contractDigest,
  DEFAULT_PLAN_HORIZON,
  dependentsOf,
  formatPath,
  gateSchema,
  type JournalEntry,
  type JournalEntryType,
  knownPlanTiers,
  loadPlan,
  PLAN_ID_PATTERN,
  type Plan,
  type PlanGate,
  type PlanInput,
  type PlanLocation,
  type PlanRef,
  type PlanTask,
  parseHorizon,
  parsePlanFile,
  planContractSchema,
  planHorizonMs,
  planLabel,
  planLocation,
  planRecordPrefixes,
  planSchema,
  planStatus,
  planTaskSchema,
  type ResolvePlanOptions,
  readJournal,
  resolvePlanRef,
  type TaskState,
  type TaskStatus,
} from './plans';
export {
  BULLSWARM_AGENT,
  BULLSWARM_AGENT_STALE_SEC,
  BULLSWARM_ASK_TIMEOUT_SEC,
  BULLSWARM_LEASE_TTL_SEC,
  BULLSWARM_PLAN,
  checkAddress,
  DEFAULT_AGENT_STALE_SEC,
  DEFAULT_ASK_TIMEOUT_SEC,
  DEFAULT_LEASE_TTL_SEC,
  LEAD_ADDRESS,
  parseAddressList,
  readSeconds,
  resolveSelfAddress,
  resolveSwarmSettings,
  type SwarmEnv,
  type SwarmSettings,
} from './settings';
export {
  type CreateSwarmOptions,
  createSwarm,
  SWARM_NAMESPACE,
  type Swarm,
  type SwarmContext,
  swarmMigrations,
} from './store';
export {
  checkTaskId,
  claimTaskIn,
  createTaskBook,
  readTaskRecord,
  relinquishTaskIn,
  type TaskBook,
  type TaskRecord,
} from './tasks/task-book';

/** The version of this package (set at build time). */
export const VERSION: string = __BULLSWARM_VERSION__;
export {
  BULLSWARM_CAPACITY_MAX_AGE_SEC,
  BULLSWARM_POOL,
  CAPACITY_ACTIONS,
  CAPACITY_CAP_VARS,
  CAPACITY_CRITICAL_VARS,
  CAPACITY_DECISIONS,
  CAPACITY_LOW_VARS,
  CAPACITY_METER_TTL_MS,
  type CapacityCap,
  type CapacityDecision,
  type CapacityReport,
  type CapacityThresholds,
  type CheckCapacityOptions,
  capacityLine,
  capacityMaxAgeMs,
  capacityThresholds,
  capFor,
  checkCapacity,
  DEFAULT_CAPACITY_MAX_AGE_SEC,
  parseCapacityCaps,
  type ReadCapacityOptions,
  readCapacity,
  readCapacityMeter,
  resolvePool,
} from './capacity';
export {
  DRILL_PLAN_ID,
  DRILL_POOLS,
  type DrillGate,
  type DrillReport,
  drillPlan,
  type RunDrillOptions,
  runDrill,
} from './drill';
export { type GateRun, type RunGateOptions, runGate } from './gates/run-gate';
export {
  type AcceptedHandoffPacket,
  type AcceptHandoffPacketOptions,
  acceptHandoffPacket,
} from './handoff/accept-handoff-packet';
export {
  HANDOFF_LANE_STATES,
  HANDOFF_REASONS,
  type HandoffAsk,
  type HandoffContent,
  type HandoffDecision,
  type HandoffItem,
  type HandoffLane,
  type HandoffMerge,
  type HandoffMergeInput,
  type HandoffPacket,
  type HandoffReason,
  handoffAskSchema,
  handoffContentSchema,
  handoffDecisionSchema,
  handoffItemSchema,
  handoffLaneSchema,
  handoffMergeSchema,
  handoffPacketSchema,
  LEAD_TASK,
} from './handoff/handoff-packet-schema';
export { type LeadPacketFields, laneTableOf, leadPacketFields } from './handoff/lead-packet';
export { readHandoffPacket } from './handoff/read-handoff-packet';
export {
  CREDENTIAL_ENV_NAME,
  credentialValues,
  HIGH_ENTROPY_BITS,
  HIGH_ENTROPY_MIN_LENGTH,
  MIN_CREDENTIAL_VALUE_LENGTH,
  redactSecrets,
  SECRET_PATTERNS,
  scanForSecrets,
  secretKindOf,
  shannonEntropy,
} from './handoff/secret-scan';
export {
  type WriteHandoffPacketOptions,
  type WrittenHandoffPacket,
  writeHandoffPacket,
} from './handoff/write-handoff-packet';
export { type AssignAccountOptions, type AssignedAccount, assignAccount } from './launch/assign-account';
export {
  launchSuccessor,
  type PreparedSuccessor,
  type PrepareSuccessorOptions,
  prepareSuccessor,
  releaseSpentLease,
  type StartedSuccessor,
  type StartSuccessorOptions,
  startSuccessor,
  successorBrief,
} from './launch/launch-successor';
export { type RunLaneWorkOptions, runLaneWork } from './launch/run-lane-work';
export {
  type PickAccountOptions,
  type PickedAccount,
  type PickResult,
  pickAccount,
  whyNotSelectable,
} from './pick/pick-account';
