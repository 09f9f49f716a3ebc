import { isAbsolute } from 'node:path';
import { LANES } from '@bullswarm/pacing';
import {
  DEFAULT_INFLIGHT_PENALTY_PCT,
  isValidReservePct,
  MAX_RESERVE_PCT,
  RESERVE_PCT_EXPECTED,
} from '@bullswarm/pacing/internal';
import { z } from 'zod';
import { POSTGRES_URL_PATTERN } from '../engine/store-url';
import { meterSourceSchema } from './meter-source-schema';
import {
  ACCOUNT_PATTERN,
  CONNECTOR_ID_PATTERN,
  ENV_NAME_PATTERN,
  POOL_ID_PATTERN,
  TIER_PATTERN,
} from './patterns';

const isoInstant = z.iso.datetime({ offset: true });
const tierName = z.string().regex(TIER_PATTERN, 'must be an effort tier name such as low, medium or high');
const reservePct = z
  .number()
  .min(0)
  .max(MAX_RESERVE_PCT)
  .refine(isValidReservePct, `must be ${RESERVE_PCT_EXPECTED}`)
  .describe('Points of the window kept for you, 0–90 (whole or one decimal).');
const poolId = z
  .string()
  .regex(POOL_ID_PATTERN, 'must be a pool id: connector or connector:account, e.g. claude-code:acme');

/** One pool: a connector, optionally under a named account, with its per-home settings. */
export const statePoolSchema = z
  .strictObject({
    /** `connector` or `connector:account`; must agree with `connector` and `account`. */
    id: poolId.describe('The durable pool id: connector, or connector:account.'),
    connector: z
      .string()
      .regex(CONNECTOR_ID_PATTERN, 'must be a kebab-case connector id such as claude-code')
      .describe('The connector that drives this pool, e.g. claude-code.'),
    account: z
      .string()
      .regex(ACCOUNT_PATTERN, 'must be an account name of letters, digits, ".", "_" or "-"')
      .optional()
      .describe('The account name when one connector serves several accounts.'),
    enabled: z.boolean().default(true).describe('A disabled pool is never a candidate.'),
    /** The model per effort tier; `null` means the tier has no allowed model on this pool. */
    models: z
      .record(tierName, z.string().min(1).nullable())
      .default({})
      .describe('The model per effort tier; null means the tier has no allowed model on this pool.'),
    /** Account environment overrides passed to the agent CLI. */
    env: z
      .record(z.string().regex(ENV_NAME_PATTERN, 'must be an environment variable name'), z.string())
      .optional(),
    /** Path or name of the agent CLI, overriding the connector's command. */
    command: z
      .string()
      .min(1)
      .optional()
      .describe("Path or name of the agent CLI, overriding the connector's."),
    capabilities: z.array(z.string().min(1)).optional(),
    lanes: z.array(z.enum(LANES)).optional(),
    /** `bullswarm strategy set-subscription`: the pacing window and, optionally, its end. */
    subscription: z
      .strictObject({ quotaWindow: z.enum(['weekly', 'monthly']), resetsAt: isoInstant.optional() })
      .optional(),
    meter: meterSourceSchema
      .optional()
      .describe("Where this pool's meter is read, overriding the connector's."),
    /** `bullswarm pools reserve`: the share of each window kept for the person. */
    reserves: z
      .strictObject({ five_hour: reservePct, weekly: reservePct, monthly: reservePct })
      .partial()
      .optional()
      .describe(
        'The share of each window kept for you (`bullswarm pools reserve`): routing treats the window as spent at 100 − reserve percent used.',
      ),
    addedAt: isoInstant.describe('When the pool was added (ISO-8601).'),
  })
  .superRefine((pool, ctx) => {
    const expected = pool.account === undefined ? pool.connector : `${pool.connector}:${pool.account}`;
    if (pool.id !== expected) {
      ctx.addIssue({
        code: 'custom',
        path: ['id'],
        message: `must be "${expected}" (connector${pool.account === undefined ? '' : ':account'} of this pool)`,
      });
    }
  });

/** An explicit tier assignment (`bullswarm strategy assign <tier> --pool <p> --model <m>`). */
export const stateAssignmentSchema = z.strictObject({ pool: poolId, model: z.string().min(1) });

/** Home-wide settings. */
export const stateConfigSchema = z.strictObject({
  /** Flat in-flight charge per record when no spend rate is measured; 0 turns it off. */
  inflightPenaltyPct: z
    .number()
    .min(0)
    .default(DEFAULT_INFLIGHT_PENALTY_PCT)
    .describe('Flat in-flight charge (points) per record when no spend rate is measured; 0 turns it off.'),
  /**
   * Third-party connectors (`bullswarm connectors add|remove|list`): `{ package, directory }` (a
   * package and its own absolute directory, as `connectors add` stores it), an absolute path to a
   * `connector.json`, or — hand-written — a package name or relative path, resolved from the
   * directory bullswarm runs in.
   */
  connectors: z
    .array(
      z.union([
        z.string().min(1),
        z.strictObject({
          package: z
            .string()
            .regex(
              /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?bullswarm-connector-[a-z0-9-._~]+$/,
              'must be a package named bullswarm-connector-* or @scope/bullswarm-connector-*',
            )
            .describe('The package name.'),
          directory: z
            .string()
            .refine((value) => isAbsolute(value), 'must be an absolute path')
            .describe("The package's own directory (absolute): where its package.json is."),
        }),
      ]),
    )
    .default([])
    .describe(
      'Third-party connectors, managed with `bullswarm connectors add|remove`: { package, directory } or a path to a connector.json (a bare package name or relative path resolves from the current directory).',
    ),
  /**
   * A shared Postgres store (several machines, one picture); `BULLSWARM_STORE_URL` overrides it.
   * Never a fall-back: while it is set, an unreachable server is an error.
   */
  storeUrl: z
    .string()
    .regex(
      POSTGRES_URL_PATTERN,
      'must be a postgres:// or postgresql:// URL, e.g. postgres://bullswarm@db.example:5432/bullswarm',
    )
    .optional()
    .describe(
      'A shared Postgres store for several machines (postgres://user@host:5432/db); BULLSWARM_STORE_URL overrides it. Keep the password out of this file: use PGPASSWORD or ~/.pgpass.',
    ),
  /** How long a meter reading is reused before the source is polled again. */
  meterTtlSec: z
    .number()
    .positive()
    .optional()
    .describe('Seconds a meter reading is reused before polling again.'),
});

/**
 * `$BULLSWARM_HOME/state.json`, version 1: the pools, the tier assignments and the home config.
 *
 * Objects are strict (an unknown key is an error, so a typo such as `enabeld` is reported rather
 * than silently ignored), pool ids are unique, and every assignment names a configured pool.
 */
export const stateFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(1),
    pools: z.array(statePoolSchema).default([]),
    assignments: z.record(tierName, stateAssignmentSchema).default({}),
    config: stateConfigSchema.default({ inflightPenaltyPct: DEFAULT_INFLIGHT_PENALTY_PCT, connectors: [] }),
  })
  .superRefine((state, ctx) => {
    const firstIndex = new Map<string, number>();
    state.pools.forEach((pool, index) => {
      const earlier = firstIndex.get(pool.id);
      if (earlier === undefined) {
        firstIndex.set(pool.id, index);
      } else {
        ctx.addIssue({
          code: 'custom',
          path: ['pools', index, 'id'],
          message: `duplicate pool id "${pool.id}" (also pools[${earlier}].id); pool ids are unique`,
        });
      }
    });
    for (const [tier, assignment] of Object.entries(state.assignments)) {
      if (!firstIndex.has(assignment.pool)) {
        ctx.addIssue({
          code: 'custom',
          path: ['assignments', tier, 'pool'],
          message: `names pool "${assignment.pool}", which is not in pools`,
        });
      }
    }
  });

/** state.json as read (defaults applied). */
export type StateFile = z.output<typeof stateFileSchema>;
/** state.json as it may be written by hand (defaults optional). */
export type StateFileInput = z.input<typeof stateFileSchema>;
export type StatePool = StateFile['pools'][number];
export type StateAssignment = z.output<typeof stateAssignmentSchema>;
export type StateConfig = StateFile['config'];

/** The state of a home with no state.json yet. */
export function emptyState(): StateFile {
  return {
    version: 1,
    pools: [],
    assignments: {},
    config: { inflightPenaltyPct: DEFAULT_INFLIGHT_PENALTY_PCT, connectors: [] },
  };
}
