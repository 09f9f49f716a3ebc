import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One meter window of a sim pool, with its reset relative to `now`. */
export interface SimWindow {
  readonly kind: 'five_hour' | 'weekly' | 'monthly';
  readonly usedPct: number;
  readonly resetsInMin: number;
}

/** A sim pool of a test home. */
export interface SimPool {
  readonly account: string;
  /** `sim` (default) or `sim-codex` (another provider family). */
  readonly connector?: string;
  readonly label?: string;
  /** Written to `<home>/sim/<account>/meter.json`; omitted = no meter file. */
  readonly windows?: readonly SimWindow[];
  readonly rateLimited?: boolean;
  /** The pool's meter source override (e.g. `{ type: 'none' }`). */
  readonly meter?: { readonly type: 'none' } | { readonly type: 'manual' };
  readonly scenario?: unknown;
}

const WINDOW_MINUTES = { five_hour: 300, weekly: 10_080, monthly: 43_200 } as const;

/** The pool id of a sim pool. */
export function simPoolId(pool: Pick<SimPool, 'account' | 'connector'>): string {
  return `${pool.connector ?? 'sim'}:${pool.account}`;
}

/** `BULLSWARM_SIM_HOME` of a sim pool: `<home>/<connector>/<account>` (sim and sim-codex keep their own). */
export function simHomeOf(home: string, pool: Pick<SimPool, 'account' | 'connector'>): string {
  return join(home, pool.connector ?? 'sim', pool.account);
}

/** Writes a sim pool's meter file (the bullswarm meter reading format the sim maintains). */
export function writeSimMeter(home: string, pool: SimPool, now: number): void {
  const dir = simHomeOf(home, pool);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'meter.json'),
    `${JSON.stringify(
      {
        readAt: new Date(now).toISOString(),
        ...(pool.rateLimited ? { rateLimited: true } : {}),
        windows: (pool.windows ?? []).map((w) => ({
          kind: w.kind,
          usedPct: w.usedPct,
          resetsAt: new Date(now + w.resetsInMin * 60_000).toISOString(),
          windowMinutes: WINDOW_MINUTES[w.kind],
        })),
      },
      null,
      2,
    )}\n`,
  );
}

/**
 * Writes a real bullswarm home in `home`: state.json with sim pools, their labels, and meter files
 * under `<home>/<connector>/<account>/` (what the sim connectors' file meters read).
 */
export function writeSimHome(home: string, pools: readonly SimPool[], now: number): void {
  mkdirSync(home, { recursive: true });
  const addedAt = new Date(now).toISOString();
  const state = {
    version: 1,
    pools: pools.map((pool) => ({
      id: simPoolId(pool),
      connector: pool.connector ?? 'sim',
      account: pool.account,
      enabled: true,
      models: {},
      addedAt,
      ...(pool.meter ? { meter: pool.meter } : {}),
    })),
    assignments: {},
    config: { inflightPenaltyPct: 3, connectors: [] },
  };
  writeFileSync(join(home, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
  const labels: Record<string, string> = {};
  for (const pool of pools) if (pool.label) labels[simPoolId(pool)] = pool.label;
  writeFileSync(join(home, 'pool-labels.json'), `${JSON.stringify({ version: 1, labels }, null, 2)}\n`);
  for (const pool of pools) {
    mkdirSync(simHomeOf(home, pool), { recursive: true });
    if (pool.windows) writeSimMeter(home, pool, now);
    if (pool.scenario !== undefined) {
      writeFileSync(
        join(simHomeOf(home, pool), 'scenario.json'),
        `${JSON.stringify(pool.scenario, null, 2)}\n`,
      );
    }
  }
}
