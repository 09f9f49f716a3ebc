import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WINDOW_MINUTES = { five_hour: 300, weekly: 10_080, monthly: 43_200 } as const;
const MINUTE = 60_000;

/** One meter window with its reset relative to `now`. */
export interface WindowSpec {
  readonly kind: keyof typeof WINDOW_MINUTES;
  readonly usedPct: number;
  /** Minutes from now to the reset; omitted = no reset known. */
  readonly resetsInMin?: number;
}

/** A pool of a test home, written to state.json as a person would. */
export interface PoolSpec {
  readonly connector: string;
  readonly account?: string;
  readonly enabled?: boolean;
  readonly models?: Record<string, string | null>;
  /** The pool's meter override; `file` pools get `<home>/meters/<id>.json` unless `meterPath` is set. */
  readonly meter?: { type: 'file'; path?: string } | { type: 'none' } | { type: 'manual' };
  /** Written as the meter file (file meters) or as `<home>/sim/<account>/meter.json` (sim pools). */
  readonly windows?: readonly WindowSpec[];
  /** `<home>/sim/<account>/scenario.json` for sim pools. */
  readonly scenario?: unknown;
  readonly subscription?: { quotaWindow: 'weekly' | 'monthly'; resetsAt?: string };
  readonly env?: Record<string, string>;
}

/** The pool id of a spec. */
export function poolId(spec: Pick<PoolSpec, 'connector' | 'account'>): string {
  return spec.account === undefined ? spec.connector : `${spec.connector}:${spec.account}`;
}

/** A meter reading file in the bullswarm meter reading format. */
export function meterReading(windows: readonly WindowSpec[], now: number) {
  return {
    readAt: new Date(now).toISOString(),
    windows: windows.map((w) => ({
      kind: w.kind,
      usedPct: w.usedPct,
      ...(w.resetsInMin === undefined
        ? {}
        : { resetsAt: new Date(now + w.resetsInMin * MINUTE).toISOString() }),
      windowMinutes: WINDOW_MINUTES[w.kind],
    })),
  };
}

/**
 * Writes a bullswarm home: state.json with the pools, and their meter files — sim pools'
 * `<home>/<sim|sim-codex>/<account>/meter.json` (what the sim connector reads and the sim updates), other
 * pools' `<home>/meters/<id>.json` through a `file` meter override.
 */
export function writeHome(home: string, pools: readonly PoolSpec[], now: number): void {
  mkdirSync(home, { recursive: true });
  const addedAt = new Date(now).toISOString();
  const state = {
    version: 1,
    pools: pools.map((spec) => {
      const id = poolId(spec);
      let meter: unknown;
      if (spec.meter?.type === 'file') {
        meter = {
          type: 'file',
          path: spec.meter.path ?? join(home, 'meters', `${id.replace(':', '_')}.json`),
        };
      } else if (spec.meter) {
        meter = spec.meter;
      }
      return {
        id,
        connector: spec.connector,
        ...(spec.account === undefined ? {} : { account: spec.account }),
        enabled: spec.enabled ?? true,
        models: spec.models ?? {},
        ...(spec.env ? { env: spec.env } : {}),
        ...(spec.subscription ? { subscription: spec.subscription } : {}),
        ...(meter === undefined ? {} : { meter }),
        addedAt,
      };
    }),
    assignments: {},
    config: { inflightPenaltyPct: 3, connectors: [] },
  };
  writeFileSync(join(home, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
  for (const spec of pools) {
    const id = poolId(spec);
    const isSim = spec.connector === 'sim' || spec.connector === 'sim-codex';
    if (isSim) {
      const simHome = join(home, spec.connector, spec.account ?? 'default');
      mkdirSync(simHome, { recursive: true });
      if (spec.windows)
        writeFileSync(join(simHome, 'meter.json'), JSON.stringify(meterReading(spec.windows, now)));
      if (spec.scenario !== undefined)
        writeFileSync(join(simHome, 'scenario.json'), JSON.stringify(spec.scenario));
    } else if (spec.meter?.type === 'file' && spec.windows) {
      mkdirSync(join(home, 'meters'), { recursive: true });
      const path = spec.meter.path ?? join(home, 'meters', `${id.replace(':', '_')}.json`);
      writeFileSync(path, JSON.stringify(meterReading(spec.windows, now)));
    }
  }
}

/** `BULLSWARM_NOW` for an epoch ms. */
export function nowEnv(now: number): { BULLSWARM_NOW: string } {
  return { BULLSWARM_NOW: new Date(now).toISOString() };
}
