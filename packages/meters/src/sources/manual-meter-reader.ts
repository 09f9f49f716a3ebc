import type { MeterReadContext, MeterReader, MeterReadResult } from './meter-reader';

/**
 * The `manual` source: the reading a person set with `bullswarm meters set` (the store's
 * `AsyncMeterLog.getManual`); unmetered while none is set, or when the context has no store.
 */
export function createManualMeterReader(): MeterReader {
  return {
    sourceType: 'manual',
    async read(context: MeterReadContext): Promise<MeterReadResult> {
      const manual = await context.meters?.getManual(context.poolId);
      if (!manual) return { kind: 'unmetered' };
      return { kind: 'manual', windows: manual.windows, readAt: manual.setAt };
    },
  };
}

/** The `none` source: always unmetered (surplus unknown, never assumed idle). */
export function createNoneMeterReader(): MeterReader {
  return {
    sourceType: 'none',
    async read(): Promise<MeterReadResult> {
      return { kind: 'unmetered' };
    },
  };
}
