import type { Escalation } from '../escalations/escalation-book';
import type { TaskRecord } from '../tasks/task-book';
import { dependentsOf, type Plan } from './plan-schema';

/**
 * The state of a task:
 * - `done`: completed (its gate passed).
 * - `blocked`: an open escalation names it or a task it depends on (its chain is parked).
 * - `running`: an agent executes it.
 * - `ready`: every dependency is done; nobody executes it yet.
 * - `waiting`: a dependency is not done yet.
 */
export type TaskState = 'done' | 'blocked' | 'running' | 'ready' | 'waiting';

/** One task's row in {@link planStatus}. */
export interface TaskStatus {
  readonly task: string;
  readonly state: TaskState;
  readonly holder: string | undefined;
  /** For `blocked`: the open escalations that park it (on itself or upstream). */
  readonly blockedBy: readonly number[];
  /** For `waiting`: the dependencies not done yet. */
  readonly waitingFor: readonly string[];
}

/**
 * Where each task of a plan stands. A critical item blocks its dependency chain, not the swarm:
 * an open escalation on a task blocks that task and everything downstream of it; every other
 * task keeps its own state. Plan-wide escalations (no task) block nothing by themselves.
 */
export function planStatus(
  plan: Pick<Plan, 'tasks'>,
  records: readonly TaskRecord[],
  openEscalations: readonly Pick<Escalation, 'id' | 'task'>[],
): TaskStatus[] {
  const byTask = new Map(records.map((r) => [r.task, r]));
  const blocked = new Map<string, number[]>();
  for (const escalation of openEscalations) {
    if (escalation.task === undefined) continue;
    for (const task of [escalation.task, ...dependentsOf(plan, escalation.task)]) {
      blocked.set(task, [...(blocked.get(task) ?? []), escalation.id]);
    }
  }
  return plan.tasks.map((task) => {
    const record = byTask.get(task.id);
    const waitingFor = task.dependsOn.filter((dep) => byTask.get(dep)?.done === undefined);
    const blockedBy = blocked.get(task.id) ?? [];
    let state: TaskState;
    if (record?.done) state = 'done';
    else if (blockedBy.length > 0) state = 'blocked';
    else if (record?.holder !== undefined) state = 'running';
    else if (waitingFor.length > 0) state = 'waiting';
    else state = 'ready';
    return { task: task.id, state, holder: record?.holder, blockedBy, waitingFor };
  });
}
