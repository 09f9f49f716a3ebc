import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.TaskClaimError';
const marker = Symbol.for(errorKey);

/**
 * A task cannot be taken:
 * - `relinquished`: this agent wrote a handoff packet for it (hysteresis: it never resumes it).
 * - `held`: another agent holds it (one executor per task).
 * - `done`: the task is already done.
 * - `accepted`: the packet was already accepted by another successor.
 */
export type TaskClaimRefusal = 'relinquished' | 'held' | 'done' | 'accepted';

/** A task cannot be taken by this agent; `reason` says why. */
export class TaskClaimError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly plan: string;
  readonly task: string;
  readonly address: string;
  readonly reason: TaskClaimRefusal;
  /** The current holder, for `held` / `accepted`. */
  readonly holder: string | undefined;

  constructor(options: {
    plan: string;
    task: string;
    address: string;
    reason: TaskClaimRefusal;
    message: string;
    holder?: string;
  }) {
    super({ name: 'TaskClaimError', message: options.message });
    this.plan = options.plan;
    this.task = options.task;
    this.address = options.address;
    this.reason = options.reason;
    this.holder = options.holder;
  }

  static override isInstance(value: unknown): value is TaskClaimError {
    return hasErrorMarker(value, errorKey);
  }
}
