import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One window of a sim pool's meter, with its reset given relative to `now`. */
export interface SimWindowSpec {
  readonly kind: 'five_hour' | 'weekly' | 'monthly';
  readonly usedPct: number;
  /** Minutes from `now` until the window resets. */
  readonly resetsInMin: number;
}

/** A sim pool of a test home. */
export interface SimPoolSpec {
  readonly account: string;
  readonly enabled?: boolean;
  readonly models?: Record<string, string | null>;
  readonly windows?: readonly SimWindowSpec[];
  /** Written to the pool's sim home as `scenario.json`. */
  readonly scenario?: unknown;
  /** `sim` (Claude shape, the default) or `sim-codex` (Codex shape). */
  readonly connector?: string;
  /** A display label (pool-labels.json). */
  readonly label?: string;
}

/**
 * The `BULLSWARM_SIM_HOME` of a sim pool, as its manifest's account env renders it:
 * `<home>/sim/<account>` for `sim`, `<home>/sim-codex/<account>` for `sim-codex`.
 */
export function simHomeOf(home: string, pool: Pick<SimPoolSpec, 'account' | 'connector'>): string {
  return join(home, pool.connector ?? 'sim', pool.account);
}

/** The pool id of a sim pool spec. */
export function simPoolId(pool: Pick<SimPoolSpec, 'account' | 'connector'>): string {
  return `${pool.connector ?? 'sim'}:${pool.account}`;
}

const WINDOW_MINUTES = { five_hour: 300, weekly: 10_080, monthly: 43_200 } as const;

/**
 * Creates a real bullswarm home in a temp directory with sim pools whose meters are files the sim
 * maintains (`<home>/sim/<account>/meter.json`), as the demo does.
 */
export function createSimHome(pools: readonly SimPoolSpec[], now: number): string {
  const home = mkdtempSync(join(tmpdir(), 'bullswarm-dispatch-'));
  const addedAt = new Date(now).toISOString();
  const state = {
    version: 1,
    pools: pools.map((pool) => {
      const connector = pool.connector ?? 'sim';
      return {
        id: `${connector}:${pool.account}`,
        connector,
        account: pool.account,
        enabled: pool.enabled ?? true,
        models: pool.models ?? {},
        addedAt,
      };
    }),
    assignments: {},
    config: { inflightPenaltyPct: 3, connectors: [] },
  };
  writeFileSync(join(home, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
  const labels = Object.fromEntries(
    pools.filter((pool) => pool.label !== undefined).map((pool) => [simPoolId(pool), pool.label]),
  );
  if (Object.keys(labels).length > 0) {
    writeFileSync(join(home, 'pool-labels.json'), `${JSON.stringify({ version: 1, labels }, null, 2)}\n`);
  }
  for (const pool of pools) {
    const simHome = simHomeOf(home, pool);
    mkdirSync(simHome, { recursive: true });
    if (pool.windows) {
      const reading = {
        readAt: addedAt,
        windows: pool.windows.map((w) => ({
          kind: w.kind,
          usedPct: w.usedPct,
          resetsAt: new Date(now + w.resetsInMin * 60_000).toISOString(),
          windowMinutes: WINDOW_MINUTES[w.kind],
        })),
      };
      writeFileSync(join(simHome, 'meter.json'), `${JSON.stringify(reading, null, 2)}\n`);
    }
    if (pool.scenario !== undefined) {
      writeFileSync(join(simHome, 'scenario.json'), `${JSON.stringify(pool.scenario, null, 2)}\n`);
    }
  }
  return home;
}
