export {
  type AgentLaunch,
  type AgentLaunchOptions,
  type AgentTask,
  buildAgentLaunch,
} from './attempt/agent-launch';
export * from './attempt/attempt-files';
export { buildChildEnv } from './attempt/child-env';
export * from './attempt/format-stall';
export {
  type AgentProcessOptions,
  type AgentProcessResult,
  runAgentProcess,
  type StopReason,
} from './attempt/run-agent-process';
export * from './attempt/run-attempt';
export {
  IGNORED_DIRECTORY_NAMES,
  type WatchWorkTreeOptions,
  type WorkTreeWatcher,
  watchWorkTree,
} from './attempt/work-tree-watcher';
export { abortableSleep } from './dispatch/abortable-sleep';
export { dispatchTask, workerSilenceMs } from './dispatch/dispatch-task';
export type * from './dispatch/dispatch-types';
export { type GuardedWork, guardInFlight } from './dispatch/interrupt-guard';
export * from './dispatch/watchdog-settings';
export * from './errors';
export * from './events/jsonl-event-writer';
export {
  DEFAULT_GATE_TIMEOUT_SEC,
  GATE_KILL_GRACE_MS,
  type GateResult,
  type RunGateOptions,
  runGate,
} from './gates/run-gate';
export * from './probe/probe-free-model';
// Runtime, snapshots and routing: also the light `@bullswarm/dispatch/routing` entry.
export * from './routing';

/** The version of this package (set at build time). */
export const VERSION: string = __BULLSWARM_VERSION__;
