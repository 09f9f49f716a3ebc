import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { WindowKind } from '@bullswarm/pacing';
import { DEFAULT_WINDOW_MINUTES, MINUTE_MS } from '@bullswarm/pacing/internal';
import { PROVIDERS_ROOT } from './paths';

/** One meter window of a test pool, its reset given relative to the home's `now`. */
export interface TestWindow {
  readonly kind: WindowKind;
  readonly usedPct: number;
  /** Minutes from `now` until the window resets; omitted = the reading names no reset. */
  readonly resetsInMin?: number;
}

/** A pool's meter override in state.json. */
export type TestMeterOverride =
  | { readonly type: 'file'; readonly path?: string }
  | { readonly type: 'none' }
  | { readonly type: 'manual' };

/**
 * A pool of a test home, as a person would have added it. Only `connector` (default `sim`) and
 * `account` make its id: `sim:a`, or `echo` for a pool without an account.
 */
export interface TestPool {
  /** The connector id (default `sim`). */
  readonly connector?: string;
  /** The account; omitted = the connector's default account (pool id = connector id). */
  readonly account?: string;
  readonly enabled?: boolean;
  /** Model per effort tier (`null` = the pool has no model at that tier). */
  readonly models?: Readonly<Record<string, string | null>>;
  readonly env?: Readonly<Record<string, string>>;
  readonly subscription?: { readonly quotaWindow: 'weekly' | 'monthly'; readonly resetsAt?: string };
  /**
   * The pool's meter override. `{ type: 'file' }` without a path reads
   * `<home>/meters/<connector>_<account>.json` (the override in state.json names it).
   */
  readonly meter?: TestMeterOverride;
  /** Written as the pool's meter file (see {@link meterFileOf}); omitted = no meter file. */
  readonly windows?: readonly TestWindow[];
  /** Written into the meter file: the provider reports an active rate limit. */
  readonly rateLimited?: boolean;
  /** Written to the pool's sim home as `scenario.json` (sim connectors only). */
  readonly scenario?: unknown;
  /** The pool's display label (pool-labels.json). */
  readonly label?: string;
}

/** Options of {@link writeTestHome}. */
export interface TestHomeOptions {
  /** The instant the home is written at (epoch ms): `addedAt`, `readAt` and resets count from it. */
  readonly now: number;
  readonly pools: readonly TestPool[];
  /** state.json `assignments` (tier → pinned pool and model); default none. */
  readonly assignments?: Readonly<Record<string, { readonly pool: string; readonly model: string }>>;
  /** Merged over state.json's default `config` (`{ inflightPenaltyPct: 3, connectors: [] }`). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** The id of a test pool: `<connector>:<account>`, or the connector id for a default-account pool. */
export function testPoolId(pool: Pick<TestPool, 'connector' | 'account'>): string {
  const connector = pool.connector ?? 'sim';
  return pool.account === undefined ? connector : `${connector}:${pool.account}`;
}

interface SimHomeTemplates {
  readonly account?: string;
  readonly defaultAccount?: string;
}

const simHomeTemplates = new Map<string, SimHomeTemplates | undefined>();

/** The `BULLSWARM_SIM_HOME` templates of a built-in manifest (providers/<id>/connector.json). */
function simHomeTemplatesOf(connector: string): SimHomeTemplates | undefined {
  if (!simHomeTemplates.has(connector)) {
    const file = join(PROVIDERS_ROOT, connector, 'connector.json');
    let templates: SimHomeTemplates | undefined;
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
        account?: { env?: Record<string, string>; defaultEnv?: Record<string, string> };
      };
      const account = manifest.account?.env?.BULLSWARM_SIM_HOME;
      const defaultAccount = manifest.account?.defaultEnv?.BULLSWARM_SIM_HOME;
      if (account || defaultAccount) templates = { account, defaultAccount };
    }
    simHomeTemplates.set(connector, templates);
  }
  return simHomeTemplates.get(connector);
}

function findSimHome(home: string, pool: Pick<TestPool, 'connector' | 'account'>): string | undefined {
  const templates = simHomeTemplatesOf(pool.connector ?? 'sim');
  const template = pool.account === undefined ? templates?.defaultAccount : templates?.account;
  if (template === undefined) return undefined;
  const rendered = template.replaceAll('{{home}}', home).replaceAll('{{account}}', pool.account ?? '');
  if (rendered.includes('{{')) {
    throw new Error(
      `providers/${pool.connector ?? 'sim'}/connector.json: BULLSWARM_SIM_HOME "${template}" uses a placeholder other than {{home}} and {{account}}`,
    );
  }
  return rendered;
}

/**
 * The `BULLSWARM_SIM_HOME` of a pool, rendered from its built-in manifest's account env
 * (providers/<connector>/connector.json): `<home>/sim/<account>` for `sim`,
 * `<home>/sim-codex/<account>` for `sim-codex`, `<home>/sim/default` without an account.
 *
 * @throws Error when the connector's manifest sets no `BULLSWARM_SIM_HOME` (not a sim connector).
 */
export function simHomeOf(home: string, pool: Pick<TestPool, 'connector' | 'account'>): string {
  const simHome = findSimHome(home, pool);
  if (simHome === undefined) {
    throw new Error(
      `pool ${testPoolId(pool)}: connector ${pool.connector ?? 'sim'} has no sim home (providers/<id>/connector.json sets no BULLSWARM_SIM_HOME); sim and sim-codex do`,
    );
  }
  return simHome;
}

/**
 * Where a pool's meter reading lives: the path of a `file` meter override (default
 * `<home>/meters/<connector>_<account>.json`), else the sim's `<sim home>/meter.json` (what the sim
 * connectors' file meters read and the sim updates). Undefined when the pool has neither.
 */
export function meterFileOf(home: string, pool: TestPool): string | undefined {
  if (pool.meter?.type === 'file') {
    return pool.meter.path ?? join(home, 'meters', `${testPoolId(pool).replace(':', '_')}.json`);
  }
  const simHome = findSimHome(home, pool);
  return simHome === undefined ? undefined : join(simHome, 'meter.json');
}

/** A reading in the bullswarm meter reading format: `readAt` is `now`, resets count from it. */
export function testMeterReading(
  windows: readonly TestWindow[],
  now: number,
  options: { readonly rateLimited?: boolean } = {},
) {
  return {
    readAt: new Date(now).toISOString(),
    ...(options.rateLimited ? { rateLimited: true } : {}),
    windows: windows.map((w) => ({
      kind: w.kind,
      usedPct: w.usedPct,
      ...(w.resetsInMin === undefined
        ? {}
        : { resetsAt: new Date(now + w.resetsInMin * MINUTE_MS).toISOString() }),
      windowMinutes: DEFAULT_WINDOW_MINUTES[w.kind],
    })),
  };
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * (Re)writes a pool's meter file ({@link meterFileOf}) with its `windows` (none = an empty
 * reading) and `rateLimited`, read at `now`: what its provider would show.
 *
 * @throws Error when the pool has no meter file (not a sim pool and no `file` meter override).
 */
export function writePoolMeter(home: string, pool: TestPool, now: number): void {
  const path = meterFileOf(home, pool);
  if (path === undefined) {
    throw new Error(
      `pool ${testPoolId(pool)}: windows need a meter file; connector ${pool.connector ?? 'sim'} has no sim home, so give it meter: { type: 'file' }`,
    );
  }
  writeJson(path, testMeterReading(pool.windows ?? [], now, { rateLimited: pool.rateLimited }));
}

/**
 * Writes a real bullswarm home for tests in `home` (created if missing) and returns it:
 * - `state.json` with the pools (added at `now`), `assignments` and `config`: a plain JSON write,
 *   not through the store (the store's own tests use this package), so the runtime under test
 *   validates it when it opens the home;
 * - `pool-labels.json` when a pool has a `label`;
 * - per pool with `windows`, its meter file ({@link meterFileOf});
 * - per sim pool, its sim home ({@link simHomeOf}) and `scenario.json` when given.
 *
 * @throws Error on two pools with one id, and on windows or a scenario a pool has nowhere to keep.
 */
export function writeTestHome(home: string, options: TestHomeOptions): string {
  const { now, pools } = options;
  const ids = pools.map(testPoolId);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw new Error(`test home: pool ${twice} is listed twice`);
  const addedAt = new Date(now).toISOString();
  mkdirSync(home, { recursive: true });
  // Private, as bullswarm keeps a home (a home open to others gets a warning on every command).
  chmodSync(home, 0o700);
  writeJson(join(home, 'state.json'), {
    version: 1,
    pools: pools.map((pool, i) => {
      const meter =
        pool.meter?.type === 'file' ? { type: 'file', path: meterFileOf(home, pool) } : pool.meter;
      return {
        id: ids[i],
        connector: pool.connector ?? 'sim',
        ...(pool.account === undefined ? {} : { account: pool.account }),
        enabled: pool.enabled ?? true,
        models: pool.models ?? {},
        ...(pool.env ? { env: pool.env } : {}),
        ...(pool.subscription ? { subscription: pool.subscription } : {}),
        ...(meter ? { meter } : {}),
        addedAt,
      };
    }),
    assignments: options.assignments ?? {},
    config: { inflightPenaltyPct: 3, connectors: [], ...options.config },
  });
  const labels = Object.fromEntries(
    pools.flatMap((pool, i) => (pool.label === undefined ? [] : [[ids[i], pool.label]])),
  );
  if (Object.keys(labels).length > 0) writeJson(join(home, 'pool-labels.json'), { version: 1, labels });
  for (const pool of pools) {
    const simHome = findSimHome(home, pool);
    if (simHome !== undefined) mkdirSync(simHome, { recursive: true });
    if (pool.windows) writePoolMeter(home, pool, now);
    if (pool.scenario !== undefined) writeJson(join(simHomeOf(home, pool), 'scenario.json'), pool.scenario);
  }
  return home;
}

/** `BULLSWARM_NOW` (the clock bullswarm and the sims read) for an epoch ms. */
export function nowEnv(now: number): { BULLSWARM_NOW: string } {
  return { BULLSWARM_NOW: new Date(now).toISOString() };
}
