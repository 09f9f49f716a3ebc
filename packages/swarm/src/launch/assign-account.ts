import type { BullswarmRuntime } from '@bullswarm/dispatch';
import { resolvePool } from '../capacity/read-capacity';
import type { Lease } from '../leases/lease-book';
import { noAccountError, parkWhenExhausted, resumeAfterPark } from '../parks/park-when-exhausted';
import { type PickResult, pickAccount } from '../pick/pick-account';
import { loadPlan, type PlanLocation } from '../plans/plan-location';
import { planHorizonMs } from '../plans/plan-schema';
import { checkAddress } from '../settings/agent-address';
import type { SwarmEnv } from '../settings/swarm-env';
import type { Swarm } from '../store/create-swarm';

/** Options of {@link assignAccount}. */
export interface AssignAccountOptions {
  readonly plan: PlanLocation;
  /** The task the lane will run (its `kind`, `lane`, `tier` and `long` drive the pick). */
  readonly task: string;
  /** The lead assigning it (must be the plan's current lead). */
  readonly owner: string;
  /** The lane's address. */
  readonly address: string;
  /** More accounts to leave out (e.g. the spent one). */
  readonly exclude?: readonly string[];
  /** Why `exclude` leaves them out (see `PickAccountOptions.excludeReason`). */
  readonly excludeReason?: string;
  /** Prefer another provider family than this one when the task allows. */
  readonly preferOtherFamilyThan?: string;
  readonly env?: SwarmEnv;
}

/** An account assigned to a lane. */
export interface AssignedAccount {
  readonly poolId: string;
  readonly lease: Lease;
  readonly pick: PickResult;
}

/**
 * The lead's part of starting a lane: picks the best-ranked account for the task
 * ({@link pickAccount}: never the lead's own, never one leased to another lane, only accounts
 * the plan declares), leases it to the lane's address, registers the lane on that account and
 * adds it to the lead record's lanes (so it gets lead notices). Only the plan's current lead
 * assigns (a lead at a lower epoch gets a `FencingError`).
 *
 * When none can take it now: a `NoAccountError` saying what the swarm does about it — wait for a
 * lane's account or for a reset within the plan's horizon, or (none resets within it) the plan is
 * parked with the soonest reset recorded and a C7 escalation sent once ({@link parkWhenExhausted}).
 * A later assignment lifts the park.
 *
 * @throws NoAccountError when no declared account can take the task now.
 */
export async function assignAccount(
  runtime: BullswarmRuntime,
  swarm: Swarm,
  options: AssignAccountOptions,
): Promise<AssignedAccount> {
  const owner = checkAddress(options.owner, 'owner');
  const address = checkAddress(options.address, 'address');
  const current = await swarm.leads.get(options.plan);
  await swarm.leads.assertCurrentEpoch(options.plan, {
    epoch: current?.epoch ?? 1,
    address: owner,
    action: `assign an account to ${address}`,
  });
  const planDoc = loadPlan(options.plan);
  const task = planDoc.tasks.find((t) => t.id === options.task);
  const pick = await pickAccount(runtime, swarm, {
    kind: task?.kind ?? 'any',
    owner,
    plan: planDoc,
    lane: task?.lane ?? 'build',
    ...(task?.tier === undefined ? {} : { tier: task.tier }),
    ...(task?.long === true ? { long: true } : {}),
    ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
    ...(options.excludeReason === undefined ? {} : { excludeReason: options.excludeReason }),
    ...(options.preferOtherFamilyThan === undefined
      ? {}
      : { preferOtherFamilyThan: options.preferOtherFamilyThan }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  if (!pick.best) {
    // Wait for a lease or a reset within the plan's horizon, or park the plan (C7, once).
    throw noAccountError(
      pick,
      await parkWhenExhausted(swarm, options.plan, {
        pick,
        horizonMs: planHorizonMs(planDoc),
        by: owner,
        task: options.task,
      }),
    );
  }
  const lease = await swarm.leases.acquire({
    ...(planDoc.pools === undefined
      ? {}
      : { declaredPoolIds: planDoc.pools.map((ref) => resolvePool(runtime, ref)) }),
    poolId: pick.best.poolId,
    holder: address,
    owner,
    plan: options.plan,
    task: options.task,
  });
  await swarm.agents.register({ address, poolId: pick.best.poolId, plan: options.plan });
  await swarm.leads.claim(options.plan, { address: owner, lanes: [address] });
  await resumeAfterPark(swarm, options.plan, owner, pick.best.poolId);
  return { poolId: pick.best.poolId, lease, pick };
}
