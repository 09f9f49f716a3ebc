import { WINDOW_KINDS, type WindowKind, type WindowReserves } from '@bullswarm/pacing';
import {
  activeReserves,
  formatCompact,
  MAX_RESERVE_PCT,
  RESERVE_PCT_EXPECTED,
  spentAtPct,
} from '@bullswarm/pacing/internal';
import { CliUsageError } from '../cli/cli-errors';
import { type CommandContext, printJson, withRuntime } from '../cli/command-context';
import { windowFlagName } from '../parse/parse-options';

/** Options of `bullswarm pools reserve`. */
export interface PoolsReserveOptions {
  readonly '5h'?: string;
  readonly weekly?: string;
  readonly monthly?: string;
  readonly clear?: boolean;
  readonly json?: boolean;
}

const RESERVE_TEXT = /^(\d{1,2})(\.\d)?%?$/;

/**
 * A reserve as typed: `15`, `12.5` or `15%`, from 0 to 90 (whole or one decimal); a usage error
 * naming the flag otherwise.
 */
export function parseReservePct(value: string, flag: string): number {
  const text = value.trim();
  const n = Number(text.replace(/%$/, ''));
  if (!RESERVE_TEXT.test(text) || !(n >= 0 && n <= MAX_RESERVE_PCT)) {
    throw new CliUsageError({
      message: `${flag} "${value}" is not valid: expected ${RESERVE_PCT_EXPECTED}`,
      flag,
      expected: RESERVE_PCT_EXPECTED,
    });
  }
  return n;
}

/** The reserves the flags set (a 0 removes that window's reserve); empty when no window flag is given. */
export function reserveFlags(options: PoolsReserveOptions): Map<WindowKind, number> {
  const given = new Map<WindowKind, number>();
  const flags: [WindowKind, string | undefined][] = [
    ['five_hour', options['5h']],
    ['weekly', options.weekly],
    ['monthly', options.monthly],
  ];
  for (const [kind, value] of flags) {
    if (value !== undefined) given.set(kind, parseReservePct(value, `--${windowFlagName(kind)}`));
  }
  return given;
}

/** `5h 20% (spent at 80%), weekly 15% (spent at 85%)`, or null when nothing is kept. */
export function formatReserves(reserves: WindowReserves): string | null {
  const parts = WINDOW_KINDS.filter((kind) => (reserves[kind] ?? 0) > 0).map((kind) => {
    const pct = reserves[kind]!;
    return `${windowFlagName(kind)} ${formatCompact(pct)}% (spent at ${formatCompact(spentAtPct(pct))}%)`;
  });
  return parts.length === 0 ? null : parts.join(', ');
}

/**
 * `bullswarm pools reserve <pool> [--5h <pct>] [--weekly <pct>] [--monthly <pct>] [--clear] [--json]`:
 * keeps a share of a window for the person (docs/routing.md, "Reserves"). Routing treats the window as
 * spent at `100 − reserve` percent used; a pin may still use it. Without a window flag it prints
 * what the pool keeps; `--<window> 0` removes one window's reserve and `--clear` every one.
 *
 * Stored with the pool's settings in state.json (written atomically). Every flag is checked before
 * anything is written: 0–90, whole or one decimal; a reserve on a window the pool does not report
 * (its connector's 5-hour and pacing windows, and any window in its current meter reading) is
 * refused, naming the windows it has.
 */
export async function poolsReserveCommand(
  context: CommandContext,
  ref: string,
  options: PoolsReserveOptions,
): Promise<void> {
  const given = reserveFlags(options);
  if (options.clear && given.size > 0) {
    throw new CliUsageError({
      message: '--clear takes no window flag: use --clear alone, or --<window> 0 to drop one reserve',
      flag: '--clear',
    });
  }
  await withRuntime(context, {}, async (runtime) => {
    const id = runtime.home.resolvePoolRef(ref);
    const poolLabel = runtime.label(id);
    const current = activeReserves(runtime.state.pools.find((pool) => pool.id === id)?.reserves);
    let windows: readonly WindowKind[] = [];
    if (given.size > 0) {
      windows = await reportedWindows(runtime, id);
      for (const [kind, pct] of given) {
        if (pct > 0 && !windows.includes(kind)) {
          const has = windows.length === 0 ? 'none' : windows.map(windowFlagName).join(', ');
          throw new CliUsageError({
            message: `--${windowFlagName(kind)}: pool ${poolLabel} does not report a ${windowFlagName(kind)} window; the windows it has: ${has}`,
            flag: `--${windowFlagName(kind)}`,
            expected: has,
          });
        }
      }
    }
    let reserves = current;
    if (options.clear || given.size > 0) {
      const state = runtime.home.updateState((draft) => {
        const pool = draft.pools.find((p) => p.id === id);
        if (pool === undefined) return;
        const next: { -readonly [K in WindowKind]?: number } = options.clear ? {} : { ...pool.reserves };
        for (const [kind, pct] of given) {
          if (pct > 0) next[kind] = pct;
          else delete next[kind];
        }
        if (Object.keys(activeReserves(next)).length === 0) delete pool.reserves;
        else pool.reserves = activeReserves(next);
      });
      reserves = activeReserves(state.pools.find((pool) => pool.id === id)?.reserves);
    }
    if (options.json) {
      printJson(context, {
        poolId: id,
        poolLabel,
        reserves,
        ...(options.clear ? { cleared: Object.keys(current).length > 0 } : {}),
      });
      return;
    }
    if (options.clear) {
      context.io.out(
        Object.keys(current).length > 0
          ? `cleared the reserves of ${poolLabel}\n`
          : `${poolLabel} had no reserve\n`,
      );
      return;
    }
    const text = formatReserves(reserves);
    context.io.out(
      text === null ? `${poolLabel} keeps no reserve\n` : `${poolLabel} keeps for you: ${text}\n`,
    );
  });
}

/**
 * The windows a pool reports: its connector's 5-hour window (when it declares one) and pacing
 * window (the subscription override's when set), and every window in its current meter reading.
 */
async function reportedWindows(
  runtime: import('@bullswarm/dispatch/routing').BullswarmRuntime,
  id: string,
): Promise<WindowKind[]> {
  const { buildPoolSnapshots } = await import('@bullswarm/dispatch/routing');
  const snapshots = await buildPoolSnapshots(runtime, { poolIds: [id] });
  const pool = snapshots.pools[0];
  if (pool === undefined) return [];
  const has = new Set<WindowKind>([pool.pacingWindow]);
  if (pool.hasFiveHourWindow) has.add('five_hour');
  if (pool.meter.status !== 'unmetered') for (const w of pool.meter.windows) has.add(w.kind);
  return WINDOW_KINDS.filter((kind) => has.has(kind));
}
