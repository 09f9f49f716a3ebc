import type { SqlSession } from '@bullswarm/store';
import { SwarmInputError } from '../errors/swarm-input-error';
import { TaskClaimError } from '../errors/task-claim-error';
import { type PlanRef, planLabel } from '../plans/plan-location';
import { PLAN_ID_PATTERN } from '../plans/plan-schema';
import { checkAddress } from '../settings/agent-address';
import type { SwarmContext } from '../store/swarm-context';

/** Who executes a task now, who gave it up, and whether it is done. */
export interface TaskRecord {
  readonly task: string;
  /** The agent executing it now (one executor per task). */
  readonly holder: string | undefined;
  readonly claimedAt: number | undefined;
  /** Agents that wrote a handoff packet for it: they never take it again. */
  readonly relinquishedBy: readonly {
    readonly address: string;
    readonly packetPath: string;
    readonly at: number;
  }[];
  readonly done:
    | { readonly by: string; readonly evidence: readonly string[]; readonly at: number }
    | undefined;
}

/**
 * Task executors: one agent per task at a time, and hysteresis — an agent that wrote a handoff
 * packet for a task never takes that task again (recorded when the packet is written; a later
 * claim by it is refused with `relinquished`, even after its account recovered).
 */
export interface TaskBook {
  /**
   * Take a task. The holder again is a no-op. Refused: `relinquished` (this agent handed it off),
   * `held` (another agent executes it), `done`.
   */
  claim(plan: PlanRef, options: { readonly task: string; readonly address: string }): Promise<TaskRecord>;
  /** Give a task back without a packet (e.g. the lead reassigns it). */
  unclaim(plan: PlanRef, options: { readonly task: string; readonly address: string }): Promise<boolean>;
  /** Mark a task done with its evidence paths (its gate passed). The holder is cleared. */
  complete(
    plan: PlanRef,
    options: { readonly task: string; readonly address: string; readonly evidence?: readonly string[] },
  ): Promise<TaskRecord>;
  get(plan: PlanRef, task: string): Promise<TaskRecord>;
  /** Every task of a plan with a record, by task id. */
  list(plan: PlanRef): Promise<TaskRecord[]>;
}

/** Checks a task id (letters, digits, `.`, `_`, `-`). @throws SwarmInputError naming `field`. */
export function checkTaskId(task: string, field = 'task'): string {
  if (typeof task !== 'string' || !PLAN_ID_PATTERN.test(task)) {
    throw new SwarmInputError({
      field,
      expected: 'a task id of the plan (letters, digits, ".", "_", "-")',
      ...(typeof task === 'string' ? { received: task } : {}),
    });
  }
  return task;
}

/** Reads a task's record (inside or outside a transaction). */
export async function readTaskRecord(sql: SqlSession, plan: PlanRef, task: string): Promise<TaskRecord> {
  const key = [plan.repo, plan.id, task];
  const claim = await sql.get<{ holder: string; claimed_at: number }>(
    'SELECT holder, claimed_at FROM swarm_task_claims WHERE plan_repo = ? AND plan_id = ? AND task_id = ?',
    key,
  );
  const relinquished = await sql.query<{ holder: string; packet_path: string; at: number }>(
    'SELECT holder, packet_path, at FROM swarm_task_relinquished WHERE plan_repo = ? AND plan_id = ? AND task_id = ? ORDER BY at',
    key,
  );
  const done = await sql.get<{ by: string; evidence: string; at: number }>(
    'SELECT "by", evidence, at FROM swarm_task_done WHERE plan_repo = ? AND plan_id = ? AND task_id = ?',
    key,
  );
  return {
    task,
    holder: claim?.holder,
    claimedAt: claim?.claimed_at,
    relinquishedBy: relinquished.map((r) => ({ address: r.holder, packetPath: r.packet_path, at: r.at })),
    done: done ? { by: done.by, evidence: JSON.parse(done.evidence) as string[], at: done.at } : undefined,
  };
}

/**
 * Claims a task inside the caller's transaction (also used when a successor accepts a packet).
 * @throws TaskClaimError
 */
export async function claimTaskIn(
  sql: SqlSession,
  plan: PlanRef,
  task: string,
  address: string,
  now: number,
): Promise<void> {
  const record = await readTaskRecord(sql, plan, task);
  const label = planLabel(plan);
  const gaveUp = record.relinquishedBy.find((r) => r.address === address);
  if (gaveUp) {
    throw new TaskClaimError({
      plan: label,
      task,
      address,
      reason: 'relinquished',
      message: `${address} wrote the handoff packet ${gaveUp.packetPath} for task ${task} of ${label}: once a packet is written the handoff completes, and its author never resumes the task (its account simply returns to the pool)`,
    });
  }
  if (record.done) {
    throw new TaskClaimError({
      plan: label,
      task,
      address,
      reason: 'done',
      holder: record.done.by,
      message: `task ${task} of ${label} is already done (by ${record.done.by})`,
    });
  }
  if (record.holder !== undefined && record.holder !== address) {
    throw new TaskClaimError({
      plan: label,
      task,
      address,
      reason: 'held',
      holder: record.holder,
      message: `task ${task} of ${label} is executed by ${record.holder}: exactly one agent executes a task at a time (a second one is a coordination fault for the lead)`,
    });
  }
  if (record.holder === undefined) {
    await sql.exec(
      'INSERT INTO swarm_task_claims (plan_repo, plan_id, task_id, holder, claimed_at) VALUES (?, ?, ?, ?, ?)',
      [plan.repo, plan.id, task, address, now],
    );
  }
}

/** Records a relinquishment inside the caller's transaction (the packet's author gives the task up). */
export async function relinquishTaskIn(
  sql: SqlSession,
  plan: PlanRef,
  task: string,
  address: string,
  packetPath: string,
  now: number,
): Promise<void> {
  await sql.exec(
    'DELETE FROM swarm_task_claims WHERE plan_repo = ? AND plan_id = ? AND task_id = ? AND holder = ?',
    [plan.repo, plan.id, task, address],
  );
  await sql.exec(
    `INSERT INTO swarm_task_relinquished (plan_repo, plan_id, task_id, holder, packet_path, at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (plan_repo, plan_id, task_id, holder) DO UPDATE SET packet_path = excluded.packet_path, at = excluded.at`,
    [plan.repo, plan.id, task, address, packetPath, now],
  );
}

/** Creates the task book over a swarm context. */
export function createTaskBook(context: SwarmContext): TaskBook {
  const { sql } = context;
  return {
    async claim(plan, options) {
      const task = checkTaskId(options.task);
      const address = checkAddress(options.address, 'address');
      const now = context.clock();
      return context.tx(async () => {
        await claimTaskIn(sql, plan, task, address, now);
        return readTaskRecord(sql, plan, task);
      });
    },
    async unclaim(plan, options) {
      const result = await sql.exec(
        'DELETE FROM swarm_task_claims WHERE plan_repo = ? AND plan_id = ? AND task_id = ? AND holder = ?',
        [plan.repo, plan.id, options.task, options.address],
      );
      return result.changes > 0;
    },
    async complete(plan, options) {
      const task = checkTaskId(options.task);
      const address = checkAddress(options.address, 'address');
      const now = context.clock();
      return context.tx(async () => {
        const record = await readTaskRecord(sql, plan, task);
        if (record.holder !== undefined && record.holder !== address) {
          throw new TaskClaimError({
            plan: planLabel(plan),
            task,
            address,
            reason: 'held',
            holder: record.holder,
            message: `task ${task} of ${planLabel(plan)} is executed by ${record.holder}, not ${address}: only its executor marks it done`,
          });
        }
        if (record.relinquishedBy.some((r) => r.address === address)) {
          await claimTaskIn(sql, plan, task, address, now); // throws `relinquished`
        }
        await sql.exec(
          `INSERT INTO swarm_task_done (plan_repo, plan_id, task_id, "by", evidence, at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (plan_repo, plan_id, task_id) DO UPDATE SET "by" = excluded."by", evidence = excluded.evidence, at = excluded.at`,
          [
            plan.repo,
            plan.id,
            task,
            address,
            JSON.stringify(context.redact.value(options.evidence ?? [])),
            now,
          ],
        );
        await sql.exec('DELETE FROM swarm_task_claims WHERE plan_repo = ? AND plan_id = ? AND task_id = ?', [
          plan.repo,
          plan.id,
          task,
        ]);
        return readTaskRecord(sql, plan, task);
      });
    },
    get(plan, task) {
      return readTaskRecord(sql, plan, checkTaskId(task));
    },
    async list(plan) {
      const ids = await sql.query<{ task_id: string }>(
        `SELECT task_id FROM swarm_task_claims WHERE plan_repo = @repo AND plan_id = @id
         UNION SELECT task_id FROM swarm_task_relinquished WHERE plan_repo = @repo AND plan_id = @id
         UNION SELECT task_id FROM swarm_task_done WHERE plan_repo = @repo AND plan_id = @id ORDER BY task_id`,
        { repo: plan.repo, id: plan.id },
      );
      const records: TaskRecord[] = [];
      for (const row of ids) records.push(await readTaskRecord(sql, plan, row.task_id));
      return records;
    },
  };
}
