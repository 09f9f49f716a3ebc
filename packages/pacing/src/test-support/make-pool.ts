/**
 * Test-only builders of pool snapshots (excluded from the build). Windows are described the way
 * `bullswarm pools` prints them — used% and elapsed% at `now` — and turned into `resetsAt`.
 */
import type { InflightRecord, MeterWindow, PoolSnapshot, RunSample, TierModel, WindowKind } from '../types';

/** 2026-11-27T12:00:00Z, the decision moment of most tests. */
export const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
export const MINUTE = 60_000;
export const FIVE_HOUR_MINUTES = 300;
export const WEEK_MINUTES = 10_080;
export const MONTH_MINUTES = 43_200;

const LENGTH: Record<WindowKind, number> = {
  five_hour: FIVE_HOUR_MINUTES,
  weekly: WEEK_MINUTES,
  monthly: MONTH_MINUTES,
};

/** A window `usedPct` full with `elapsedPct` of its length gone at `now` (reset unknown when elapsed is null). */
export function meterWindow(
  kind: WindowKind,
  usedPct: number,
  elapsedPct: number | null,
  now = NOW,
): MeterWindow {
  const windowMinutes = LENGTH[kind];
  if (elapsedPct === null) return { kind, usedPct, windowMinutes };
  const leftMs = Math.round((1 - elapsedPct / 100) * windowMinutes * MINUTE);
  return { kind, usedPct, windowMinutes, resetsAt: now + leftMs };
}

/** A window that resets `minutesLeft` minutes after `now`. */
export function windowResetting(
  kind: WindowKind,
  usedPct: number,
  minutesLeft: number,
  now = NOW,
): MeterWindow {
  return { kind, usedPct, windowMinutes: LENGTH[kind], resetsAt: now + minutesLeft * MINUTE };
}

export function paidModel(model: string): TierModel {
  return { model, free: false, explicit: true };
}

export function freeModel(model: string | undefined): TierModel {
  return model === undefined ? { free: true } : { model, free: true, explicit: true };
}

export type PoolOverrides = Partial<Omit<PoolSnapshot, 'meter'>> & {
  readonly windows?: readonly MeterWindow[];
  readonly meter?: PoolSnapshot['meter'];
};

/**
 * A healthy, enabled pool with a paid model on every built-in tier, every lane, no readings, no
 * load and no history unless overridden.
 */
export function makePool(id: string, overrides: PoolOverrides = {}): PoolSnapshot {
  const connectorId = id.split(':')[0]!;
  const { windows, meter, ...rest } = overrides;
  return {
    id,
    connectorId,
    providerFamily: connectorId,
    credentialGroup: id,
    enabled: true,
    lanes: ['analyze', 'build', 'chore'],
    capabilities: [],
    models: {
      low: paidModel(`${connectorId}-low`),
      medium: paidModel(`${connectorId}-medium`),
      high: paidModel(`${connectorId}-high`),
    },
    pacingWindow: 'weekly',
    hasFiveHourWindow: (windows ?? []).some((w) => w.kind === 'five_hour'),
    meter: meter ?? { status: windows === undefined ? 'unmetered' : 'live', windows: windows ?? [] },
    spendRates: {},
    inflight: [],
    runs: [],
    ...rest,
  };
}

/** An in-flight record started `minutesAgo` before `now`. */
export function inflightRecord(
  id: string,
  minutesAgo: number,
  expectedMinutes?: number,
  now = NOW,
): InflightRecord {
  return {
    id,
    startedAt: now - minutesAgo * MINUTE,
    ...(expectedMinutes === undefined ? {} : { expectedMinutes }),
  };
}

/** A recorded run of `minutes` wall time that ended an hour before `now`. */
export function run(
  poolId: string,
  tier: string,
  minutes: number,
  outcome: RunSample['outcome'] = 'ok',
  now = NOW,
): RunSample {
  const endedAt = now - 60 * MINUTE;
  return {
    poolId,
    tier,
    startedAt: endedAt - minutes * MINUTE,
    endedAt,
    stalled: outcome === 'stalled',
    outcome,
  };
}
