import { statSync } from 'node:fs';
import { type EffortTier, LANES, type Lane } from '@bullswarm/pacing';
import { TIER_PATTERN } from '@bullswarm/store';
import { TaskInputError } from '../errors/task-input-error';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import { BUILTIN_TIERS } from '../snapshots/build-pool-snapshots';

/**
 * The checks of a task handed to bullswarm, shared by `bullswarm run` and the `run`/`route` tools
 * of `bullswarm mcp`: one rule, one wording, with the field named as each caller names it
 * (`--lane` / `lane`). Each throws {@link TaskInputError}.
 */

/** A lane: one of analyze, build, chore (required). */
export function checkLane(value: string | undefined, field: string): Lane {
  const expected = LANES.join(', ');
  if (value === undefined) {
    throw new TaskInputError({ message: `${field} is required: one of ${expected}`, field, expected });
  }
  if (!(LANES as readonly string[]).includes(value)) {
    throw new TaskInputError({
      message: `${field} "${value}" is not a lane: expected one of ${expected}`,
      field,
      expected,
    });
  }
  return value as Lane;
}

/** Every tier this home knows: the built-in ones, the connectors' and the pools' own. */
export function knownTiers(runtime: BullswarmRuntime): string[] {
  const known = new Set<string>(BUILTIN_TIERS);
  for (const connector of runtime.connectors.values()) {
    for (const name of Object.keys(connector.modelProfiles)) known.add(name);
  }
  for (const pool of runtime.state.pools) for (const name of Object.keys(pool.models)) known.add(name);
  return [...known];
}

/** The shape of a tier name (before any home is opened): letters, digits, `.`, `_`, `-`. */
export function checkTierName(tier: string, field: string): EffortTier {
  if (!TIER_PATTERN.test(tier)) {
    throw new TaskInputError({
      message: `${field} "${tier}" is not a tier name: expected low, medium, high (or a tier a connector declares)`,
      field,
    });
  }
  return tier;
}

/**
 * A tier some installed connector (or pool) declares, or a built-in one: a typo would otherwise
 * read as "no pool has a model for tier hgih" — a routing outcome instead of bad input.
 */
export function checkKnownTier(runtime: BullswarmRuntime, tier: string, field: string): EffortTier {
  checkTierName(tier, field);
  const known = knownTiers(runtime);
  if (!known.includes(tier)) {
    throw new TaskInputError({
      message: `${field} "${tier}" is not a tier any connector declares: expected one of ${known.join(', ')}`,
      field,
      expected: known.join(', '),
    });
  }
  return tier;
}

/** An existing directory (an absolute path). */
export function checkDirectory(path: string, field: string): string {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    throw new TaskInputError({
      message: `${field} ${path}: no such directory`,
      field,
      expected: 'an existing directory',
    });
  }
  return path;
}

/** The most automatic retries a run takes (a runaway value would spawn without end). */
export const MAX_RUN_RETRY_ATTEMPTS = 10;

/** Automatic retries of a run: a whole number from 0 to {@link MAX_RUN_RETRY_ATTEMPTS}. */
export function checkRetryAttempts(value: string | number, field: string): number {
  const text = String(value);
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n > MAX_RUN_RETRY_ATTEMPTS) {
    const expected = `a whole number from 0 to ${MAX_RUN_RETRY_ATTEMPTS}`;
    throw new TaskInputError({
      message: `${field} "${text}" is not valid: expected ${expected}`,
      field,
      expected,
    });
  }
  return n;
}
