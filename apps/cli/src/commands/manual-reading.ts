import type { MeterWindow, PacingWindowKind, WindowKind } from '@bullswarm/pacing';
import { formatCompact, formatTime } from '@bullswarm/pacing/internal';
import { windowFlagName } from '../parse/parse-options';

const WINDOW_ORDER: readonly WindowKind[] = ['five_hour', 'weekly', 'monthly'];

/** A new manual reading laid over the earlier one (see {@link mergeManualReading}). */
export interface MergedReading {
  /** The windows stored: the ones given, then the earlier ones kept, in 5h, weekly, monthly order. */
  readonly windows: readonly MeterWindow[];
  /** Earlier windows the flags did not mention, kept as they were. */
  readonly kept: readonly MeterWindow[];
  /** Earlier windows the flags did not mention whose reset has passed: dropped (the window restarted). */
  readonly dropped: readonly MeterWindow[];
  /** Windows given without `--resets-at` that keep the earlier reading's reset (still ahead). */
  readonly resetKept: readonly WindowKind[];
}

/**
 * Lays a `meters set` over the pool's earlier manual reading, so a new reading changes only what it
 * names: `meters set p --weekly 40` after `--5h 10 --weekly 30` keeps the 5-hour window. A window
 * given without `--resets-at` keeps the earlier reading's reset of that window while it is still
 * ahead. An earlier window the flags do not mention is kept unless its reset has passed (that
 * window has restarted, so its share no longer holds): it is dropped, and said so.
 * `meters clear` drops every window.
 */
export function mergeManualReading(
  given: readonly MeterWindow[],
  earlier: readonly MeterWindow[],
  now: number,
): MergedReading {
  const byKind = new Map<WindowKind, MeterWindow>();
  const resetKept: WindowKind[] = [];
  for (const window of given) {
    const before = earlier.find((w) => w.kind === window.kind);
    if (window.resetsAt === undefined && before?.resetsAt !== undefined && before.resetsAt > now) {
      byKind.set(window.kind, { ...window, resetsAt: before.resetsAt });
      resetKept.push(window.kind);
    } else {
      byKind.set(window.kind, window);
    }
  }
  const kept: MeterWindow[] = [];
  const dropped: MeterWindow[] = [];
  for (const window of earlier) {
    if (byKind.has(window.kind)) continue;
    if (window.resetsAt !== undefined && window.resetsAt <= now) {
      dropped.push(window);
      continue;
    }
    kept.push(window);
    byKind.set(window.kind, window);
  }
  const windows = WINDOW_ORDER.flatMap((kind) => {
    const window = byKind.get(kind);
    return window === undefined ? [] : [window];
  });
  return { windows, kept, dropped, resetKept };
}

/** What decides whether a manual reading paces its pool. */
export interface PacingContext {
  /** The pool as the user named it (`<pool>`), for the commands the advice prints. */
  readonly ref: string;
  /** The window the pool is paced on (its `strategy set-subscription`, else its connector's). */
  readonly pacingWindow: PacingWindowKind;
  /** `strategy set-subscription --resets-at` supplies the pacing window's reset. */
  readonly subscriptionResets: boolean;
}

/**
 * The advice a manual reading needs, one line each (printed as warnings): a reading that leaves its
 * pool unpaced says what to add. Routing paces a pool on one window (docs/routing.md, "Pace and
 * surplus"): without a share of that window, or without its reset, the pool's pace is unknown
 * (`bullswarm pools` prints `surplus=-`).
 * - the pacing window has no reset (and no subscription supplies one): add `--resets-at`;
 * - the reading has no share of the pacing window but has the other long window (a monthly reading
 *   on a pool paced weekly): point at `strategy set-subscription --quota-window`;
 * - the reading has only the 5-hour window: add the pacing window.
 */
export function manualReadingAdvice(windows: readonly MeterWindow[], context: PacingContext): string[] {
  const { ref, pacingWindow } = context;
  const pacing = windows.find((w) => w.kind === pacingWindow);
  if (pacing !== undefined) {
    if (pacing.resetsAt !== undefined || context.subscriptionResets) return [];
    return [
      `${ref} is paced on its ${pacingWindow} window and this reading does not say when it resets, so its pace is unknown (surplus -): add --resets-at ${pacingWindow}=<iso>, e.g. --resets-at ${pacingWindow}=2026-12-01T00:00:00Z`,
    ];
  }
  const other: PacingWindowKind = pacingWindow === 'weekly' ? 'monthly' : 'weekly';
  if (windows.some((w) => w.kind === other)) {
    return [
      `${ref} is paced on its ${pacingWindow} window, which this ${other} reading has no share of (pools shows ${pacingWindow} used ?%): if its quota resets ${other === 'monthly' ? 'monthly' : 'weekly'}, run \`bullswarm strategy set-subscription ${ref} --quota-window ${other}\`; else add --${pacingWindow} <pct>`,
    ];
  }
  return [
    `${ref} is paced on its ${pacingWindow} window, which this reading has no share of, so its pace is unknown (surplus -): add --${pacingWindow} <pct> --resets-at ${pacingWindow}=<iso>`,
  ];
}

/** `weekly 40% (resets 2026-12-01T00:00:00Z)`: one window as `meters set` prints it. */
export function describeWindow(window: MeterWindow): string {
  const resets = window.resetsAt === undefined ? '' : ` (resets ${formatTime(window.resetsAt)})`;
  return `${windowFlagName(window.kind)} ${formatCompact(window.usedPct)}%${resets}`;
}
