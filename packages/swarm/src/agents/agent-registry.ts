import { isRecordedProcessAlive, readProcessStartTime } from '@bullswarm/connectors/internal';
import { SwarmInputError } from '../errors/swarm-input-error';
import type { PlanRef } from '../plans/plan-location';
import { checkAddress } from '../settings/agent-address';
import type { SwarmContext } from '../store/swarm-context';

/** An agent as registered, with its reachability now. */
export interface AgentRecord {
  readonly address: string;
  readonly host: string;
  /** The agent's process, when it registered one. */
  readonly pid: number | undefined;
  /** The account it runs on. */
  readonly poolId: string | undefined;
  /** The plan it works on. */
  readonly plan: PlanRef | undefined;
  readonly registeredAt: number;
  readonly heartbeatAt: number;
  /** Set when it deregistered. */
  readonly stoppedAt: number | undefined;
  readonly reachable: boolean;
  /** Why it is (un)reachable, in one phrase. */
  readonly why: string;
}

/** Options of {@link AgentRegistry.register}. */
export interface RegisterAgentOptions {
  readonly address: string;
  /** The agent's own process on this host (its liveness is part of reachability). */
  readonly pid?: number;
  readonly poolId?: string;
  readonly plan?: PlanRef;
}

/** The reachability of an address now. */
export interface Reachability {
  readonly address: string;
  readonly reachable: boolean;
  readonly why: string;
  readonly agent: AgentRecord | undefined;
}

interface AgentRow {
  address: string;
  host: string;
  pid: number | null;
  pid_start: string | null;
  pool_id: string | null;
  plan_repo: string | null;
  plan_id: string | null;
  registered_at: number;
  heartbeat_at: number;
  stopped_at: number | null;
}

/**
 * Agent addresses and heartbeats: who is reachable.
 *
 * **Unreachable** means any of: the address was never registered ("has no agent"); it
 * deregistered; its registered process on this host is gone (the pid is dead, or reused by a newer
 * process — start times differ); or it sent no heartbeat for `BULLSWARM_AGENT_STALE_SEC`
 * (default 900 s). Agents registered from other hosts are judged by heartbeat alone. Everything
 * else is reachable. Nothing polls: agents heartbeat at their turn boundaries.
 */
export interface AgentRegistry {
  /** Register (or re-register) an address: a fresh heartbeat, no longer stopped. */
  register(options: RegisterAgentOptions): Promise<AgentRecord>;
  /**
   * A heartbeat: the agent is alive now. Renews every unexpired lease it holds (in the same
   * transaction) and returns how many.
   * @throws SwarmInputError when the address was never registered.
   */
  heartbeat(address: string): Promise<{ readonly agent: AgentRecord; readonly renewedLeases: number }>;
  /**
   * A heartbeat when the address is registered (and not deregistered), nothing otherwise: what
   * commands an agent runs at its turn boundary (reading its inbox, checking its own capacity) call. Returns whether
   * it counted.
   */
  touch(address: string): Promise<boolean>;
  /** Mark an address stopped (unreachable from now on); returns whether it was registered. */
  deregister(address: string): Promise<boolean>;
  /** Attach the agent's process (e.g. once its launch has spawned it). */
  setPid(address: string, pid: number): Promise<void>;
  get(address: string): Promise<AgentRecord | undefined>;
  list(): Promise<AgentRecord[]>;
  reachability(address: string): Promise<Reachability>;
  /** The host an address registered from (undefined when it never registered). */
  hostOf(address: string): Promise<string | undefined>;
  /**
   * The addresses registered on `host` that are bound to no plan or to `plan`, oldest registration
   * first (the last tier of a plan's effective succession).
   */
  onHost(host: string, plan: PlanRef): Promise<string[]>;
}

/** Creates the registry over a swarm context. */
export function createAgentRegistry(context: SwarmContext): AgentRegistry {
  const { sql } = context;
  const toRecord = (row: AgentRow, now: number): AgentRecord => {
    const judged = judge(row, now, context);
    return {
      address: row.address,
      host: row.host,
      pid: row.pid ?? undefined,
      poolId: row.pool_id ?? undefined,
      plan: row.plan_repo && row.plan_id ? { repo: row.plan_repo, id: row.plan_id } : undefined,
      registeredAt: row.registered_at,
      heartbeatAt: row.heartbeat_at,
      stoppedAt: row.stopped_at ?? undefined,
      reachable: judged.reachable,
      why: judged.why,
    };
  };
  const select = (address: string) =>
    sql.get<AgentRow>('SELECT * FROM swarm_agents WHERE address = ?', [address]);

  const registry: AgentRegistry = {
    async register(options) {
      const address = checkAddress(options.address, 'address');
      if (options.pid !== undefined && !(Number.isInteger(options.pid) && options.pid > 0)) {
        throw new SwarmInputError({
          field: 'pid',
          expected: 'a positive process id',
          received: String(options.pid),
        });
      }
      const now = context.clock();
      const pidStart = options.pid === undefined ? null : (readProcessStartTime(options.pid) ?? null);
      await context.tx(async () => {
        await sql.exec(
          `INSERT INTO swarm_agents (address, host, pid, pid_start, pool_id, plan_repo, plan_id, registered_at, heartbeat_at, stopped_at)
           VALUES (@address, @host, @pid, @pidStart, @poolId, @planRepo, @planId, @now, @now, NULL)
           ON CONFLICT (address) DO UPDATE SET host = @host, pid = @pid, pid_start = @pidStart,
             pool_id = COALESCE(@poolId, swarm_agents.pool_id), plan_repo = COALESCE(@planRepo, swarm_agents.plan_repo),
             plan_id = COALESCE(@planId, swarm_agents.plan_id), heartbeat_at = @now, stopped_at = NULL`,
          {
            address,
            host: context.host,
            pid: options.pid ?? null,
            pidStart,
            poolId: options.poolId ?? null,
            planRepo: options.plan?.repo ?? null,
            planId: options.plan?.id ?? null,
            now,
          },
          { idempotent: true },
        );
      });
      return toRecord((await select(address))!, now);
    },
    async heartbeat(address) {
      checkAddress(address, 'address');
      const now = context.clock();
      const renewed = await context.tx(async () => {
        const row = await select(address);
        if (!row) {
          throw new SwarmInputError({
            field: 'address',
            expected: 'a registered agent (register the address first)',
            received: address,
          });
        }
        await sql.exec('UPDATE swarm_agents SET heartbeat_at = ?, stopped_at = NULL WHERE address = ?', [
          now,
          address,
        ]);
        return (
          await sql.exec(
            'UPDATE swarm_leases SET renewed_at = @now, expires_at = @now + ttl_ms WHERE holder = @address AND expires_at > @now',
            { now, address },
          )
        ).changes;
      });
      return { agent: toRecord((await select(address))!, now), renewedLeases: renewed };
    },
    async touch(address) {
      const row = await select(address);
      if (!row || row.stopped_at !== null) return false;
      await registry.heartbeat(address);
      return true;
    },
    async deregister(address) {
      const now = context.clock();
      const result = await sql.exec(
        'UPDATE swarm_agents SET stopped_at = ? WHERE address = ?',
        [now, address],
        {
          idempotent: true,
        },
      );
      return result.changes > 0;
    },
    async setPid(address, pid) {
      const pidStart = readProcessStartTime(pid) ?? null;
      await sql.exec(
        'UPDATE swarm_agents SET pid = ?, pid_start = ?, host = ? WHERE address = ?',
        [pid, pidStart, context.host, address],
        { idempotent: true },
      );
    },
    async get(address) {
      const row = await select(address);
      return row ? toRecord(row, context.clock()) : undefined;
    },
    async list() {
      const now = context.clock();
      return (await sql.query<AgentRow>('SELECT * FROM swarm_agents ORDER BY address')).map((row) =>
        toRecord(row, now),
      );
    },
    async reachability(address) {
      const agent = await registry.get(address);
      if (!agent) return { address, reachable: false, why: 'no agent registered at this address', agent };
      return { address, reachable: agent.reachable, why: agent.why, agent };
    },
    async hostOf(address) {
      return (await select(address))?.host;
    },
    async onHost(host, plan) {
      const rows = await sql.query<{ address: string }>(
        `SELECT address FROM swarm_agents WHERE host = ?
           AND (plan_id IS NULL OR (plan_repo = ? AND plan_id = ?))
         ORDER BY registered_at, address`,
        [host, plan.repo, plan.id],
      );
      return rows.map((row) => row.address);
    },
  };
  return registry;
}

function judge(row: AgentRow, now: number, context: SwarmContext): { reachable: boolean; why: string } {
  if (row.stopped_at !== null) return { reachable: false, why: 'deregistered' };
  if (
    row.pid !== null &&
    row.host === context.host &&
    !isRecordedProcessAlive(row.pid, row.pid_start ?? undefined)
  ) {
    return { reachable: false, why: `its process ${row.pid} is gone` };
  }
  const silentMs = now - row.heartbeat_at;
  if (silentMs > context.settings.agentStaleMs) {
    return {
      reachable: false,
      why: `no heartbeat for ${Math.round(silentMs / 1000)}s (stale after ${Math.round(context.settings.agentStaleMs / 1000)}s)`,
    };
  }
  return { reachable: true, why: `heartbeat ${Math.max(0, Math.round(silentMs / 1000))}s ago` };
}
