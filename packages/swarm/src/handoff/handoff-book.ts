import { TaskClaimError } from '../errors/task-claim-error';
import { type PlanRef, planLabel } from '../plans/plan-location';
import type { SwarmContext } from '../store/swarm-context';
import { claimTaskIn, relinquishTaskIn } from '../tasks/task-book';

/** A packet as the store knows it: written, launched, accepted. */
export interface HandoffRecord {
  readonly packetPath: string;
  readonly plan: PlanRef;
  readonly task: string;
  readonly author: string;
  readonly authorPool: string | undefined;
  readonly reason: string;
  readonly writtenAt: number;
  readonly successor: string | undefined;
  readonly successorPool: string | undefined;
  readonly launchedAt: number | undefined;
  readonly acceptedBy: string | undefined;
  readonly acceptedAt: number | undefined;
}

/** The store side of handoff packets (the packet itself is a file in the plan). */
export interface HandoffBook {
  /**
   * Record a written packet and, in the same transaction, the author's relinquishment of the task
   * (hysteresis). Returns the record.
   */
  recordWritten(
    plan: PlanRef,
    options: {
      readonly packetPath: string;
      readonly task: string;
      readonly author: string;
      readonly authorPool?: string;
      readonly reason: string;
    },
  ): Promise<HandoffRecord>;
  /** Record the successor launched for a packet and the account leased to it. */
  recordLaunched(
    packetPath: string,
    options: { readonly successor: string; readonly poolId: string },
  ): Promise<HandoffRecord>;
  /**
   * Record the acceptance and, in the same transaction, the successor's claim of the task.
   * @throws TaskClaimError `accepted` (another successor accepted it), `relinquished` (the
   *   author cannot accept its own packet), `held`.
   */
  recordAccepted(packetPath: string, options: { readonly by: string }): Promise<HandoffRecord>;
  get(packetPath: string): Promise<HandoffRecord | undefined>;
  list(plan: PlanRef): Promise<HandoffRecord[]>;
}

interface HandoffRow {
  packet_path: string;
  plan_repo: string;
  plan_id: string;
  task_id: string;
  author: string;
  author_pool: string | null;
  reason: string;
  written_at: number;
  successor: string | null;
  successor_pool: string | null;
  launched_at: number | null;
  accepted_by: string | null;
  accepted_at: number | null;
}

function toRecord(row: HandoffRow): HandoffRecord {
  return {
    packetPath: row.packet_path,
    plan: { repo: row.plan_repo, id: row.plan_id },
    task: row.task_id,
    author: row.author,
    authorPool: row.author_pool ?? undefined,
    reason: row.reason,
    writtenAt: row.written_at,
    successor: row.successor ?? undefined,
    successorPool: row.successor_pool ?? undefined,
    launchedAt: row.launched_at ?? undefined,
    acceptedBy: row.accepted_by ?? undefined,
    acceptedAt: row.accepted_at ?? undefined,
  };
}

/** Creates the handoff book over a swarm context. */
export function createHandoffBook(context: SwarmContext): HandoffBook {
  const { sql } = context;
  const select = (packetPath: string) =>
    sql.get<HandoffRow>('SELECT * FROM swarm_handoffs WHERE packet_path = ?', [packetPath]);
  return {
    async recordWritten(plan, options) {
      const now = context.clock();
      return context.tx(async () => {
        await sql.exec(
          `INSERT INTO swarm_handoffs (packet_path, plan_repo, plan_id, task_id, author, author_pool, reason, written_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            options.packetPath,
            plan.repo,
            plan.id,
            options.task,
            options.author,
            options.authorPool ?? null,
            context.redact.text(options.reason),
            now,
          ],
        );
        await relinquishTaskIn(sql, plan, options.task, options.author, options.packetPath, now);
        return toRecord((await select(options.packetPath))!);
      });
    },
    async recordLaunched(packetPath, options) {
      const now = context.clock();
      return context.tx(async () => {
        await sql.exec(
          'UPDATE swarm_handoffs SET successor = ?, successor_pool = ?, launched_at = ? WHERE packet_path = ?',
          [options.successor, options.poolId, now, packetPath],
        );
        return toRecord((await select(packetPath))!);
      });
    },
    async recordAccepted(packetPath, options) {
      const now = context.clock();
      return context.tx(async () => {
        const row = await select(packetPath);
        if (!row) throw new Error(`no handoff record for ${packetPath}`);
        const plan = { repo: row.plan_repo, id: row.plan_id };
        if (row.accepted_by !== null && row.accepted_by !== options.by) {
          throw new TaskClaimError({
            plan: planLabel(plan),
            task: row.task_id,
            address: options.by,
            reason: 'accepted',
            holder: row.accepted_by,
            message: `packet ${packetPath} was already accepted by ${row.accepted_by}: one successor per packet`,
          });
        }
        await claimTaskIn(sql, plan, row.task_id, options.by, now);
        await sql.exec('UPDATE swarm_handoffs SET accepted_by = ?, accepted_at = ? WHERE packet_path = ?', [
          options.by,
          now,
          packetPath,
        ]);
        return toRecord((await select(packetPath))!);
      });
    },
    async get(packetPath) {
      const row = await select(packetPath);
      return row ? toRecord(row) : undefined;
    },
    async list(plan) {
      return (
        await sql.query<HandoffRow>(
          'SELECT * FROM swarm_handoffs WHERE plan_repo = ? AND plan_id = ? ORDER BY written_at, packet_path',
          [plan.repo, plan.id],
        )
      ).map(toRecord);
    },
  };
}
