/**
 * @bullswarm/swarm — swarm autonomy: capacity verdicts, account leases, lead succession with
 * epochs and fencing, notices, handoff packets, escalations and the drill.
 */
export * from './agents/agent-registry';
export * from './errors';
export * from './escalations/escalation-book';
export * from './git';
export * from './handoff/handoff-book';
export * from './leads/lead-book';
export * from './leads/run-fenced';
export * from './leases/lease-book';
export * from './notices/notice-box';
export * from './plans';
export * from './settings';
export * from './store';
export * from './tasks/task-book';

/** The version of this package (set at build time). */
export const VERSION: string = __BULLSWARM_VERSION__;
export * from './capacity';
export * from './drill';
export * from './gates/run-gate';
export * from './handoff/accept-handoff-packet';
export * from './handoff/handoff-packet-schema';
export * from './handoff/read-handoff-packet';
export * from './handoff/secret-scan';
export * from './handoff/write-handoff-packet';
export * from './launch/assign-account';
export * from './launch/launch-successor';
export * from './launch/run-lane-work';
export * from './pick/pick-account';
