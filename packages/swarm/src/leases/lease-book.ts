import type { SqlSession } from '@bullswarm/store';
import { LeaseRefusedError } from '../errors/lease-refused-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import type { PlanRef } from '../plans/plan-location';
import { checkAddress } from '../settings/agent-address';
import type { SwarmContext } from '../store/swarm-context';

/** An account held for one lane. */
export interface Lease {
  readonly poolId: string;
  /** The lane address holding the account. */
  readonly holder: string;
  /** The lead that granted it. */
  readonly owner: string;
  readonly plan: PlanRef | undefined;
  readonly task: string | undefined;
  readonly ttlMs: number;
  readonly acquiredAt: number;
  /** Last renewal (a heartbeat of the holder), or the grant. */
  readonly renewedAt: number;
  /** The lease is released at this instant unless the holder heartbeats first. */
  readonly expiresAt: number;
}

/**
 * One change of a lease, kept for evidence: `acquired`, `renewed` (leased again to the same holder by
 * the same owner), `released`, `expired`. The holder's heartbeats also extend the lease, but they are
 * not events: they only move `renewedAt` and `expiresAt` (one row per heartbeat would grow without bound).
 */
export interface LeaseEvent {
  readonly poolId: string;
  readonly holder: string;
  readonly owner: string;
  readonly event: 'acquired' | 'renewed' | 'released' | 'expired';
  readonly at: number;
}

/** Options of {@link LeaseBook.acquire}. */
export interface AcquireLeaseOptions {
  /** A declared pool id (resolve labels first; the caller checks it is declared). */
  readonly poolId: string;
  readonly holder: string;
  readonly owner: string;
  /** The owner's own account: never leased to a lane (default: the owner's registered pool). */
  readonly ownerPoolId?: string;
  readonly plan?: PlanRef;
  readonly task?: string;
  /** The accounts the plan declares (resolved pool ids); a pool outside them is refused (`not-declared`). */
  readonly declaredPoolIds?: readonly string[];
  /** TTL in ms (default `BULLSWARM_LEASE_TTL_SEC`, 1800 s). */
  readonly ttlMs?: number;
}

/**
 * Account leases: an account is held by one lane at a time.
 *
 * A lease lives `ttlMs` past its grant or its holder's last heartbeat (`AgentRegistry.heartbeat`
 * renews every unexpired lease the holder has). It is active while `now < expiresAt` and released
 * at `expiresAt` — a killed holder's lease is released after expiry and not before, whatever the
 * state of its process. Leases live in the store, so they survive restarts.
 */
export interface LeaseBook {
  /**
   * Lease an account to a lane. The same holder and owner again renews it. Refused when another
   * lane holds it (`held`), it is the owner's own account (`lead-own-account`), or the plan's
   * declared accounts are given and it is not one of them (`not-declared`).
   */
  acquire(options: AcquireLeaseOptions): Promise<Lease>;
  /**
   * Release a lease. `by`, when given, must be the holder or the owner. Returns the released lease.
   * @throws LeaseRefusedError `not-held` / `not-holder`.
   */
  release(poolId: string, by?: string): Promise<Lease>;
  /** The active lease of an account, if any. */
  get(poolId: string): Promise<Lease | undefined>;
  /** Active leases (expired ones are released first), by pool id. */
  list(): Promise<Lease[]>;
  /** Release every expired lease now; returns them. */
  reap(): Promise<Lease[]>;
  /** The lease history of an account (or all), oldest first. */
  events(poolId?: string): Promise<LeaseEvent[]>;
}

interface LeaseRow {
  pool_id: string;
  holder: string;
  owner: string;
  plan_repo: string | null;
  plan_id: string | null;
  task_id: string | null;
  ttl_ms: number;
  acquired_at: number;
  renewed_at: number;
  expires_at: number;
}

function toLease(row: LeaseRow): Lease {
  return {
    poolId: row.pool_id,
    holder: row.holder,
    owner: row.owner,
    plan: row.plan_repo && row.plan_id ? { repo: row.plan_repo, id: row.plan_id } : undefined,
    task: row.task_id ?? undefined,
    ttlMs: row.ttl_ms,
    acquiredAt: row.acquired_at,
    renewedAt: row.renewed_at,
    expiresAt: row.expires_at,
  };
}

async function logLeaseEvent(
  sql: SqlSession,
  lease: Pick<Lease, 'poolId' | 'holder' | 'owner'>,
  event: LeaseEvent['event'],
  at: number,
): Promise<void> {
  await sql.exec(
    'INSERT INTO swarm_lease_events (pool_id, holder, owner, event, at) VALUES (?, ?, ?, ?, ?)',
    [lease.poolId, lease.holder, lease.owner, event, at],
  );
}

/** Releases every lease expired at `now` (inside the caller's transaction), each recorded `expired` at its expiry. */
async function reapExpiredIn(sql: SqlSession, now: number): Promise<Lease[]> {
  const expired = (await sql.query<LeaseRow>('SELECT * FROM swarm_leases WHERE expires_at <= ?', [now])).map(
    toLease,
  );
  for (const lease of expired) {
    await sql.exec('DELETE FROM swarm_leases WHERE pool_id = ? AND expires_at <= ?', [lease.poolId, now]);
    await logLeaseEvent(sql, lease, 'expired', lease.expiresAt);
  }
  return expired;
}

/**
 * Releases the leases `owner` granted for `plan` (inside the caller's transaction: a lead releasing
 * its plan). Expired ones are reaped first, as everywhere, so they are recorded `expired` at their
 * expiry, not released. Returns the released leases.
 */
export async function releasePlanLeasesIn(
  sql: SqlSession,
  plan: PlanRef,
  owner: string,
  now: number,
): Promise<Lease[]> {
  await reapExpiredIn(sql, now);
  const leases = (
    await sql.query<LeaseRow>(
      'SELECT * FROM swarm_leases WHERE owner = ? AND plan_repo = ? AND plan_id = ? ORDER BY pool_id',
      [owner, plan.repo, plan.id],
    )
  ).map(toLease);
  for (const lease of leases) {
    await sql.exec('DELETE FROM swarm_leases WHERE pool_id = ?', [lease.poolId]);
    await logLeaseEvent(sql, lease, 'released', now);
  }
  return leases;
}

/** Creates the lease book over a swarm context. */
export function createLeaseBook(context: SwarmContext): LeaseBook {
  const { sql } = context;
  const selectActive = async (poolId: string, now: number) => {
    const row = await sql.get<LeaseRow>('SELECT * FROM swarm_leases WHERE pool_id = ? AND expires_at > ?', [
      poolId,
      now,
    ]);
    return row ? toLease(row) : undefined;
  };

  return {
    async acquire(options) {
      const holder = checkAddress(options.holder, 'holder');
      const owner = checkAddress(options.owner, 'owner');
      const ttlMs = options.ttlMs ?? context.settings.leaseTtlMs;
      if (!(Number.isFinite(ttlMs) && ttlMs > 0)) {
        throw new SwarmInputError({
          field: 'ttlMs',
          expected: 'a positive number of milliseconds',
          received: String(ttlMs),
        });
      }
      if (options.declaredPoolIds !== undefined && !options.declaredPoolIds.includes(options.poolId)) {
        throw new LeaseRefusedError({
          poolId: options.poolId,
          reason: 'not-declared',
          message: `lease refused: ${options.poolId} is not an account the plan declares (${options.declaredPoolIds.join(', ') || 'none'}); work moves only among declared accounts`,
        });
      }
      const now = context.clock();
      // One transaction: reap, judge, write. Two lanes racing for one account (on any hosts) leave
      // one holder: the transaction runs as if alone, and `pool_id` is the table's primary key.
      return context.tx(async () => {
        await reapExpiredIn(sql, now);
        const ownerPool =
          options.ownerPoolId ??
          (
            await sql.get<{ pool_id: string | null }>('SELECT pool_id FROM swarm_agents WHERE address = ?', [
              owner,
            ])
          )?.pool_id ??
          undefined;
        if (ownerPool !== undefined && ownerPool === options.poolId) {
          throw new LeaseRefusedError({
            poolId: options.poolId,
            reason: 'lead-own-account',
            message: `lease refused: ${options.poolId} is the lead ${owner}'s own account; a lane never gets the lead's account (the two would reach critical together)`,
          });
        }
        const current = await selectActive(options.poolId, now);
        if (current && !(current.holder === holder && current.owner === owner)) {
          throw new LeaseRefusedError({
            poolId: options.poolId,
            reason: 'held',
            holder: current.holder,
            owner: current.owner,
            message: `lease refused: ${options.poolId} is held by ${current.holder} (leased by ${current.owner}) until ${new Date(current.expiresAt).toISOString()} unless renewed; an account is held by one lane at a time`,
          });
        }
        if (current) {
          await sql.exec(
            'UPDATE swarm_leases SET renewed_at = ?, expires_at = ?, ttl_ms = ? WHERE pool_id = ?',
            [now, now + ttlMs, ttlMs, options.poolId],
          );
          await logLeaseEvent(sql, current, 'renewed', now);
        } else {
          await sql.exec(
            `INSERT INTO swarm_leases (pool_id, holder, owner, plan_repo, plan_id, task_id, ttl_ms, acquired_at, renewed_at, expires_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              options.poolId,
              holder,
              owner,
              options.plan?.repo ?? null,
              options.plan?.id ?? null,
              options.task ?? null,
              ttlMs,
              now,
              now,
              now + ttlMs,
            ],
          );
          await logLeaseEvent(sql, { poolId: options.poolId, holder, owner }, 'acquired', now);
        }
        return (await selectActive(options.poolId, now))!;
      });
    },
    async release(poolId, by) {
      const now = context.clock();
      return context.tx(async () => {
        await reapExpiredIn(sql, now);
        const current = await selectActive(poolId, now);
        if (!current) {
          throw new LeaseRefusedError({
            poolId,
            reason: 'not-held',
            message: `no lease on ${poolId} to release (it was released or expired)`,
          });
        }
        if (by !== undefined && by !== current.holder && by !== current.owner) {
          throw new LeaseRefusedError({
            poolId,
            reason: 'not-holder',
            holder: current.holder,
            owner: current.owner,
            message: `${by} cannot release the lease on ${poolId}: only its holder ${current.holder} or its owner ${current.owner} can`,
          });
        }
        await sql.exec('DELETE FROM swarm_leases WHERE pool_id = ?', [poolId]);
        await logLeaseEvent(sql, current, 'released', now);
        return current;
      });
    },
    get(poolId) {
      return selectActive(poolId, context.clock());
    },
    async list() {
      const now = context.clock();
      const expired = await sql.get('SELECT 1 AS one FROM swarm_leases WHERE expires_at <= ? LIMIT 1', [now]);
      if (expired !== undefined) await context.tx(() => reapExpiredIn(sql, now));
      return (
        await sql.query<LeaseRow>('SELECT * FROM swarm_leases WHERE expires_at > ? ORDER BY pool_id', [now])
      ).map(toLease);
    },
    reap() {
      const now = context.clock();
      return context.tx(() => reapExpiredIn(sql, now));
    },
    async events(poolId) {
      type EventRow = {
        pool_id: string;
        holder: string;
        owner: string;
        event: LeaseEvent['event'];
        at: number;
      };
      const rows =
        poolId === undefined
          ? await sql.query<EventRow>('SELECT * FROM swarm_lease_events ORDER BY id')
          : await sql.query<EventRow>('SELECT * FROM swarm_lease_events WHERE pool_id = ? ORDER BY id', [
              poolId,
            ]);
      return rows.map((r) => ({
        poolId: r.pool_id,
        holder: r.holder,
        owner: r.owner,
        event: r.event,
        at: r.at,
      }));
    },
  };
}
