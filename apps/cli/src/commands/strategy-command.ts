import type { ConnectorV1 } from '@bullswarm/connectors';
import { BUILTIN_TIERS, type BullswarmRuntime, orderedTiers } from '@bullswarm/dispatch/routing';
import { estimateDuration, stallThresholdMinutes, type WindowKind } from '@bullswarm/pacing';
import { formatCompact, formatTime, isFreeTierModel } from '@bullswarm/pacing/internal';
import { TIER_PATTERN } from '@bullswarm/store';
import { CliUsageError } from '../cli/cli-errors';
import { type CommandContext, printJson, withRuntime } from '../cli/command-context';
import { alignColumns } from '../output/align-columns';
import { formatSeconds } from '../output/format-seconds';
import { parseInstant, windowFlagName } from '../parse/parse-options';
import { checkAllowedModel } from './pools-command';

/** One (pool, tier) row of `bullswarm strategy`. */
export interface StrategyRow {
  readonly poolId: string;
  readonly poolLabel: string;
  readonly tier: string;
  /** The model; null = the connector CLI's default. */
  readonly model: string | null;
  readonly free: boolean;
  /** p50 wall minutes of the recorded non-stalled runs at (pool, tier); null with none. */
  readonly p50Minutes: number | null;
  readonly runs: number;
  /** Silence allowed before the stall watchdog stops a worker, minutes. */
  readonly stallMinutes: number;
  /** `metered-default`, `free-default` (fewer than 3 runs) or `p50`. */
  readonly stallBasis: string;
  /** Measured spend, points per worker-minute, per window of the pool. */
  readonly spendRates: Partial<Record<WindowKind, number>>;
  /** An explicit tier assignment names this pool for this tier. */
  readonly assigned: boolean;
}

/**
 * `bullswarm strategy [--json]`: per pool and tier, the model (and whether it is free), the p50 wall
 * time of recorded runs with their count, the stall threshold, the pool's spend rates; and the
 * explicit tier assignments. Every number is pacing's (`estimateDuration`, `stallThresholdMinutes`).
 */
export async function strategyShowCommand(
  context: CommandContext,
  options: { json?: boolean },
): Promise<void> {
  const { buildPoolSnapshots } = await import('@bullswarm/dispatch/routing');
  await withRuntime(context, {}, async (runtime) => {
    const snapshots = await buildPoolSnapshots(runtime);
    const assignments = orderedTiers(Object.keys(runtime.state.assignments)).map((tier) => {
      const assignment = runtime.state.assignments[tier]!;
      return {
        tier,
        poolId: assignment.pool,
        poolLabel: runtime.label(assignment.pool),
        model: assignment.model,
      };
    });
    const rows: StrategyRow[] = [];
    for (const pool of [...snapshots.pools].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      for (const tier of orderedTiers(Object.keys(pool.models))) {
        const tierModel = pool.models[tier];
        if (tierModel == null) continue;
        const free = isFreeTierModel(tierModel);
        const estimate = estimateDuration({ runs: pool.runs, poolId: pool.id, tier });
        const stall = stallThresholdMinutes({ free, runs: pool.runs, poolId: pool.id, tier });
        rows.push({
          poolId: pool.id,
          poolLabel: pool.label ?? pool.id,
          tier,
          model: tierModel.model ?? null,
          free,
          p50Minutes: estimate.source === 'recorded' ? estimate.minutes : null,
          runs: estimate.samples,
          stallMinutes: stall.minutes,
          stallBasis: stall.basis,
          spendRates: pool.spendRates,
          assigned: runtime.state.assignments[tier]?.pool === pool.id,
        });
      }
    }
    if (options.json) {
      printJson(context, { assignments, pools: rows });
      return;
    }
    context.io.out(
      assignments.length === 0
        ? 'assignments: none (every tier is picked by surplus)\n'
        : `assignments: ${assignments.map((a) => `${a.tier} → ${a.poolLabel} (${a.model})`).join(', ')}\n`,
    );
    if (rows.length === 0) {
      context.io.out('no pools yet: run `bullswarm setup`\n');
      return;
    }
    const table = rows.map((row) => [
      row.poolLabel,
      row.tier,
      `${row.model ?? '(cli default)'}${row.free ? ' (free)' : ''}${row.assigned ? ' [assigned]' : ''}`,
      `p50=${row.p50Minutes === null ? '-' : row.p50Minutes < 1 ? formatSeconds(row.p50Minutes) : `${formatCompact(row.p50Minutes)}m`} n=${row.runs}`,
      `stall=${formatCompact(row.stallMinutes)}m (${row.stallBasis})`,
      `rates=${formatRates(row.spendRates)}`,
    ]);
    for (const line of alignColumns(table)) context.io.out(`${line}\n`);
  });
}

function formatRates(rates: Partial<Record<WindowKind, number>>): string {
  const entries = (['five_hour', 'weekly', 'monthly'] as const)
    .filter((kind) => rates[kind] !== undefined)
    .map((kind) => `${windowFlagName(kind)}:${rates[kind]!.toFixed(3)}/min`);
  return entries.length === 0 ? 'unmeasured' : entries.join(',');
}

function checkTier(tier: string): void {
  if (!TIER_PATTERN.test(tier)) {
    throw new CliUsageError({
      message: `<tier> "${tier}" is not a tier name: expected e.g. low, medium or high`,
      flag: '<tier>',
    });
  }
}

function connectorOf(runtime: BullswarmRuntime, poolId: string) {
  const pool = runtime.state.pools.find((p) => p.id === poolId)!;
  const connector = runtime.connectors.get(pool.connector);
  if (!connector) {
    throw new CliUsageError({
      message: `pool ${poolId}: connector ${pool.connector} is not installed, so its models cannot be checked`,
      flag: '--pool',
    });
  }
  return connector;
}

/**
 * `bullswarm strategy assign <tier> --pool <p> --model <m>`: an explicit tier assignment (a
 * preference among selectable pools, never a bypass). The model must be in the pool connector's
 * allow-list for the tier; the pool's model for that tier is set to it, so the pool holds the
 * model it is assigned with.
 */
export async function strategyAssignCommand(
  context: CommandContext,
  tier: string,
  options: { pool: string; model: string; json?: boolean },
): Promise<void> {
  checkTier(tier);
  await withRuntime(context, {}, async (runtime) => {
    const poolId = runtime.home.resolvePoolRef(options.pool);
    const model = checkAllowedModel(connectorOf(runtime, poolId), tier, options.model, '--model');
    runtime.home.updateState((draft) => {
      const pool = draft.pools.find((p) => p.id === poolId);
      if (pool) pool.models = { ...pool.models, [tier]: model };
      draft.assignments[tier] = { pool: poolId, model };
    });
    if (options.json) {
      printJson(context, { tier, assignment: { pool: poolId, model }, poolLabel: runtime.label(poolId) });
      return;
    }
    context.io.out(`assigned tier ${tier} → ${runtime.label(poolId)} (${model})\n`);
  });
}

/**
 * The tiers a home knows: the built-in ones, every tier an installed connector or a pool names,
 * and every assigned tier (so a stale assignment can always be removed).
 */
function knownTiers(runtime: BullswarmRuntime): string[] {
  const known = new Set<string>(BUILTIN_TIERS);
  for (const connector of runtime.connectors.values()) {
    for (const name of Object.keys(connector.modelProfiles)) known.add(name);
  }
  for (const pool of runtime.state.pools) for (const name of Object.keys(pool.models)) known.add(name);
  for (const name of Object.keys(runtime.state.assignments)) known.add(name);
  return orderedTiers([...known]);
}

/**
 * `bullswarm strategy unassign <tier>`: removing an assignment that is not there is not an error;
 * a tier nothing in the home knows (a typo) is a usage error (exit 2) listing the known ones.
 */
export async function strategyUnassignCommand(
  context: CommandContext,
  tier: string,
  options: { json?: boolean } = {},
): Promise<void> {
  checkTier(tier);
  await withRuntime(context, {}, async (runtime) => {
    const known = knownTiers(runtime);
    if (!known.includes(tier)) {
      throw new CliUsageError({
        message: `<tier> "${tier}" is not a tier: expected one of ${known.join(', ')}`,
        flag: '<tier>',
        expected: known.join(', '),
      });
    }
    let removed = false;
    let assignment: { pool: string; model: string } | undefined;
    runtime.home.updateState((draft) => {
      removed = Object.hasOwn(draft.assignments, tier);
      assignment = draft.assignments[tier] === undefined ? undefined : { ...draft.assignments[tier] };
      delete draft.assignments[tier];
    });
    if (options.json) {
      printJson(context, { tier, removed, assignment: assignment ?? null });
      return;
    }
    context.io.out(
      removed ? `unassigned tier ${tier}\n` : `tier ${tier} had no assignment (nothing to do)\n`,
    );
  });
}

/** One model `strategy apply` (or `setup --strategy`) set. */
export interface AppliedModel {
  readonly poolId: string;
  readonly tier: string;
  readonly model: string;
}

/**
 * Sets each pool's model per tier to its connector's default (the `default` profile, else the
 * first). Pins nothing. A tier explicitly assigned to a pool keeps the assigned model (the
 * assignment would otherwise name a model the pool no longer holds). Pools whose connector is not
 * installed are left alone. Returns what was set.
 */
export function applyDefaultModels(
  runtime: BullswarmRuntime,
  defaultModelForTier: (connector: ConnectorV1, tier: string) => string | undefined,
  poolIds?: readonly string[],
): AppliedModel[] {
  const applied: AppliedModel[] = [];
  runtime.home.updateState((draft) => {
    applied.length = 0;
    for (const pool of draft.pools) {
      if (poolIds !== undefined && !poolIds.includes(pool.id)) continue;
      const connector = runtime.connectors.get(pool.connector);
      if (!connector) continue;
      const models: Record<string, string | null> = { ...pool.models };
      for (const tier of orderedTiers(Object.keys(connector.modelProfiles))) {
        const assignment = draft.assignments[tier];
        if (assignment?.pool === pool.id) {
          models[tier] = assignment.model;
          continue;
        }
        const model = defaultModelForTier(connector, tier);
        if (model === undefined) continue;
        models[tier] = model;
        applied.push({ poolId: pool.id, tier, model });
      }
      pool.models = models;
    }
  });
  return applied;
}

/** `bullswarm strategy apply [--json]`. */
export async function strategyApplyCommand(
  context: CommandContext,
  options: { json?: boolean },
): Promise<void> {
  const { defaultModelForTier } = await import('@bullswarm/connectors');
  await withRuntime(context, {}, async (runtime) => {
    const applied = applyDefaultModels(runtime, defaultModelForTier);
    if (options.json) {
      printJson(context, { applied });
      return;
    }
    if (applied.length === 0) {
      context.io.out('no pools with an installed connector: nothing to set\n');
      return;
    }
    for (const line of alignColumns(applied.map((a) => [runtime.label(a.poolId), a.tier, a.model]))) {
      context.io.out(`${line}\n`);
    }
    context.io.out('pinned nothing: every tier is picked by surplus unless `strategy assign` names a pool\n');
  });
}

/**
 * `bullswarm strategy set-subscription <pool> --quota-window weekly|monthly [--resets-at <iso>]`:
 * overrides the pacing window the connector declares (stored as the pool's `subscription` in
 * state.json). Without `--resets-at` a previously stored end date is dropped.
 */
export async function strategySetSubscriptionCommand(
  context: CommandContext,
  ref: string,
  options: { quotaWindow: 'weekly' | 'monthly'; resetsAt?: string; json?: boolean },
): Promise<void> {
  const resetsAt =
    options.resetsAt === undefined ? undefined : formatTime(parseInstant(options.resetsAt, '--resets-at'));
  await withRuntime(context, {}, async (runtime) => {
    const poolId = runtime.home.resolvePoolRef(ref);
    const state = runtime.home.updateState((draft) => {
      const pool = draft.pools.find((p) => p.id === poolId);
      if (pool) {
        pool.subscription = {
          quotaWindow: options.quotaWindow,
          ...(resetsAt === undefined ? {} : { resetsAt }),
        };
      }
    });
    if (options.json) {
      printJson(context, {
        pool: state.pools.find((p) => p.id === poolId) ?? null,
        poolLabel: runtime.label(poolId),
      });
      return;
    }
    context.io.out(
      `${runtime.label(poolId)} is paced on its ${options.quotaWindow} window${resetsAt === undefined ? '' : ` ending ${resetsAt}`}\n`,
    );
  });
}
