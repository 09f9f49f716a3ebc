import { orderedTiers, type PoolView } from '@bullswarm/dispatch/routing';
import {
  formatCompact,
  formatDuration,
  formatPct,
  formatSurplus,
  windowLabel,
} from '@bullswarm/pacing/internal';
import { type Colors, createColors } from '../output/color';
import { formatShortDuration } from '../output/format-seconds';

/**
 * The `free=` column of a pool, or null when no tier it serves has a free model.
 *
 * Free-ness belongs to a (pool, tier). When every tier the pool serves (has a model for) runs the
 * same free model: `free=<model>`. Otherwise each free tier is named: `free=low:<model>`, and
 * several are joined with commas (`free=low:a,medium:b`). A tier whose model is the CLI default
 * prints `default` for the model.
 */
export function formatFreeColumn(view: Pick<PoolView, 'models'>): string | null {
  const served = orderedTiers(Object.keys(view.models)).filter((tier) => view.models[tier] != null);
  const free = served.filter((tier) => view.models[tier]!.free);
  if (free.length === 0) return null;
  const name = (tier: string) => view.models[tier]!.model ?? 'default';
  const models = new Set(free.map(name));
  if (free.length === served.length && models.size === 1) return `free=${name(free[0]!)}`;
  return `free=${free.map((tier) => `${tier}:${name(tier)}`).join(',')}`;
}

/**
 * The meter column: `<window> used <n>% elapsed <n>%` of the pacing window (`?%` where a number is
 * unknown), or `unmetered`; then `[cache]` (read from the cache), `[manual]` (set by hand) or
 * `[stale · <error>, retry in <time>]` (the last good reading, held after a failed poll). A pool
 * that never had a good reading and whose source fails reads `unmetered [<error>, retry in <time>]`.
 */
export function formatMeterColumn(view: PoolView, now: number): string {
  const status = view.meter.status;
  const hold = holdText(view, now);
  if (status === 'unmetered') return hold === null ? 'unmetered' : `unmetered [${hold}]`;
  const reading = `${view.pacingWindow} used ${formatPct(view.usedPct)} elapsed ${formatPct(view.elapsedPct)}`;
  if (status === 'cache') return `${reading} [cache]`;
  if (status === 'manual') return `${reading} [manual]`;
  if (status === 'stale') return `${reading} [stale · ${hold ?? view.meterError ?? 'poll failed'}]`;
  return reading;
}

function holdText(view: PoolView, now: number): string | null {
  if (view.meterError === null) return null;
  if (view.meterHoldUntil === null) return view.meterError;
  const waitMs = Date.parse(view.meterHoldUntil) - now;
  return `${view.meterError}, retry ${waitMs > 0 ? `in ${formatShortDuration(waitMs / 60_000)}` : 'now'}`;
}

/**
 * The 5-hour column: `5h=<reading>%`, or `5h=<reading>%-><projected>%` when in-flight work projects
 * it higher, then ` (<n>% elapsed)` when the window's reset is known. Null without a 5-hour reading.
 */
export function formatFiveHourColumn(view: PoolView): string | null {
  const five = view.fiveHour;
  if (five === null) return null;
  const projected = five.projectedPct > five.usedPct ? `->${formatPct(five.projectedPct)}` : '';
  const elapsed = five.elapsedPct === null ? '' : ` (${formatPct(five.elapsedPct)} elapsed)`;
  return `5h=${formatPct(five.usedPct)}${projected}${elapsed}`;
}

/**
 * The state column. How several states combine:
 * - `UNAVAILABLE (<why>)` when the connector is missing, and `disabled` for a disabled pool,
 *   stand alone (nothing else matters for a pool that cannot be picked);
 * - `BURST-GATED <window> until <time>` (each spent window, comma-separated) stands alone too;
 * - then `RESERVED <window> (<n>% kept) until <time>` (each window inside the reserve kept for the
 *   person, comma-separated) stands alone: routing leaves the pool out until the window resets;
 * - otherwise `NEAR-5H-LIMIT` and `resets in <dur> EXPIRING-SOON urgency=<n>` are both printed
 *   when both apply (near-limit first: it is the more immediate constraint); a draining pool
 *   (forecast at 95% or more of its pacing window, ahead of its clock) shows `DRAINING <window>
 *   <forecast>%` instead of EXPIRING-SOON: routing ranks it last, not on urgency;
 * - `ready` when nothing applies.
 */
export function formatStateColumn(view: PoolView, colors: Colors = createColors(false)): string {
  if (view.states.includes('unavailable')) return colors.red(`UNAVAILABLE (${view.problem})`);
  if (view.states.includes('disabled')) return colors.dim('disabled');
  if (view.states.includes('burst-gated')) {
    const windows = view.spentWindows
      .map((s) => `${windowLabel(s.window)}${s.until === null ? '' : ` until ${s.until}`}`)
      .join(', ');
    return colors.red(`BURST-GATED ${windows}`);
  }
  if (view.states.includes('reserved')) {
    const windows = view.reservedWindows
      .map(
        (r) =>
          `${windowLabel(r.window)} (${formatCompact(r.reservePct)}% kept)${r.until === null ? '' : ` until ${r.until}`}`,
      )
      .join(', ');
    return colors.yellow(`RESERVED ${windows}`);
  }
  const parts: string[] = [];
  if (view.states.includes('near-5h-limit')) parts.push(colors.yellow('NEAR-5H-LIMIT'));
  if (view.states.includes('draining')) {
    const resets = view.resetsInMinutes === null ? '' : `resets in ${formatDuration(view.resetsInMinutes)} `;
    parts.push(colors.yellow(`${resets}DRAINING ${view.pacingWindow} used ${formatPct(view.usedPct)}`));
  }
  if (view.states.includes('expiring-soon')) {
    const resets = view.resetsInMinutes === null ? '' : `resets in ${formatDuration(view.resetsInMinutes)} `;
    parts.push(colors.magenta(`${resets}EXPIRING-SOON urgency=${formatCompact(view.urgency ?? 0)}`));
  }
  return parts.length === 0 ? colors.green('ready') : parts.join(' ');
}

/**
 * One line of `bullswarm pools` (docs/routing.md, "How the decision shows its work"):
 *
 * `claude-code:acme cost=4 lanes=analyze/build/chore weekly used 30% elapsed 65.6% [cache] surplus=35.6 inflight=0 5h=15% (44% elapsed) ready`
 *
 * A pool with its own agent CLI (`pools add --command`) ends with `command=<path>`.
 * The label is padded to `labelWidth` so the columns after it line up. `surplus=` is the pace
 * (elapsed% − used% of the pacing window, `-` when unknown); in-flight work is shown beside it
 * and its charge is in `--json` (`inflightCharge`).
 */
export function formatPoolLine(
  view: PoolView,
  now: number,
  labelWidth = view.poolLabel.length,
  colors: Colors = createColors(false),
): string {
  const columns = [
    colors.bold(view.poolLabel.padEnd(labelWidth)),
    `cost=${view.cost ?? '-'}`,
    `lanes=${view.lanes.join('/')}`,
    formatMeterColumn(view, now),
    `surplus=${formatSurplus(view.pace)}`,
    `inflight=${view.inflight}`,
  ];
  const five = formatFiveHourColumn(view);
  if (five !== null) columns.push(five);
  const free = formatFreeColumn(view);
  if (free !== null) columns.push(free);
  columns.push(formatStateColumn(view, colors));
  if (view.command !== null) columns.push(`command=${view.command}`);
  return columns.join(' ');
}

/**
 * The `--debug` line under a pool whose last meter poll failed: `  meter error: <the reader's full
 * message>` (two spaces in, so it reads as belonging to the pool line above). Null when the pool
 * has no meter error; falls back to the short status when the hold carries no detail (one written
 * before the detail existed).
 */
export function formatMeterErrorDetail(
  view: Pick<PoolView, 'meterError' | 'meterErrorDetail'>,
): string | null {
  const detail = view.meterErrorDetail ?? view.meterError;
  return detail === null ? null : `  meter error: ${detail}`;
}

/** Every pool's line, labels padded to the widest one. */
export function formatPoolLines(views: readonly PoolView[], now: number, colors?: Colors): string[] {
  const width = Math.max(0, ...views.map((view) => view.poolLabel.length));
  return views.map((view) => formatPoolLine(view, now, width, colors));
}
