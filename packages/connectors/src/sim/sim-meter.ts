import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/write-file-atomic';
import { sleepSync } from '../process/sleep-sync';

/** The bullswarm meter reading format the sim maintains in `$BULLSWARM_SIM_HOME/meter.json`. */
export type SimMeterWindow = {
  kind: 'five_hour' | 'weekly' | 'monthly';
  usedPct: number;
  resetsAt: string;
  windowMinutes: number;
};

export type SimMeterReading = {
  readAt: string;
  windows: SimMeterWindow[];
  rateLimited?: boolean;
};

/** The windows a fresh sim account has: a 5-hour and a weekly window, both unused. */
export const SIM_WINDOW_MINUTES: Readonly<Record<'five_hour' | 'weekly', number>> = {
  five_hour: 300,
  weekly: 10_080,
};

function freshWindow(kind: 'five_hour' | 'weekly', now: number): SimMeterWindow {
  const windowMinutes = SIM_WINDOW_MINUTES[kind];
  return { kind, usedPct: 0, resetsAt: new Date(now + windowMinutes * 60_000).toISOString(), windowMinutes };
}

/** Rolls a window whose reset has passed into its next period (used 0). */
function rollWindow(window: SimMeterWindow, now: number): SimMeterWindow {
  let resetsAt = Date.parse(window.resetsAt);
  if (!Number.isFinite(resetsAt) || resetsAt > now) return window;
  const period = window.windowMinutes * 60_000;
  while (resetsAt <= now) resetsAt += period;
  return { ...window, usedPct: 0, resetsAt: new Date(resetsAt).toISOString() };
}

/**
 * Runs `update` on meter.json under a lock directory (`meter.json.lock`, taken with mkdir; a lock
 * older than 10 s is considered abandoned), so concurrent sims never lose an update.
 */
export function updateSimMeter(
  simHome: string,
  now: number,
  update: (reading: SimMeterReading) => SimMeterReading,
): SimMeterReading {
  mkdirSync(simHome, { recursive: true, mode: 0o700 });
  const path = join(simHome, 'meter.json');
  const lock = `${path}.lock`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      mkdirSync(lock, { mode: 0o700 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 10_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      if (attempt > 4000) throw new Error(`bullswarm-sim: ${lock}: could not take the meter lock`);
      sleepSync(5);
    }
  }
  try {
    let reading: SimMeterReading;
    try {
      reading = JSON.parse(readFileSync(path, 'utf8')) as SimMeterReading;
      if (!Array.isArray(reading.windows)) throw new Error('windows: expected an array');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
      reading = {
        readAt: new Date(now).toISOString(),
        windows: [freshWindow('five_hour', now), freshWindow('weekly', now)],
      };
    }
    const rolled = { ...reading, windows: reading.windows.map((window) => rollWindow(window, now)) };
    const next = { ...update(rolled), readAt: new Date(now).toISOString() };
    writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Adds `spendPct` to every window (capped at 100); a successful run clears `rateLimited`. */
export function spendOnMeter(simHome: string, now: number, spendPct: number): SimMeterReading {
  return updateSimMeter(simHome, now, ({ rateLimited: _cleared, ...reading }) => ({
    ...reading,
    windows: reading.windows.map((window) => ({
      ...window,
      usedPct: Math.min(100, Math.round((window.usedPct + spendPct) * 1000) / 1000),
    })),
  }));
}

/** Sets `kind` to 100% until `resetsAt` and marks the reading rate-limited. */
export function exhaustOnMeter(
  simHome: string,
  now: number,
  kind: 'five_hour' | 'weekly',
  resetsAt: number,
): SimMeterReading {
  return updateSimMeter(simHome, now, (reading) => {
    const windows = reading.windows.some((window) => window.kind === kind)
      ? reading.windows
      : [...reading.windows, freshWindow(kind, now)];
    return {
      ...reading,
      rateLimited: true,
      windows: windows.map((window) =>
        window.kind === kind
          ? { ...window, usedPct: 100, resetsAt: new Date(resetsAt).toISOString() }
          : window,
      ),
    };
  });
}
