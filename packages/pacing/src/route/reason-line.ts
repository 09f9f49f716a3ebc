/**
 * Builders of the reason line and the `forecast:` line, in the routing spec's exact wording.
 * `chooseRoute` assembles them as `<main clause>[ · <trailer>]…[ (burst-gated: …)]`; they are
 * exported so other surfaces (dry runs, `bullswarm pools`, saved runs) print the same words.
 *
 * Numbers: `formatCompact` (one decimal, trailing `.0` removed) unless a builder says otherwise;
 * times ISO-8601 UTC without milliseconds; durations `45m`, `2h 5m`, `3d 4h`.
 *
 * Lists inside a pick's reason (metered pools below free, forecast over 100%, draining, preferred
 * over busier, excluded, burst-gated) name at most {@link REASON_LIST_LIMIT} pools and end with
 * `+<n> more` beyond that (a choice: the spec shows short lists, and a reason line naming
 * thousands of pools helps no one; every pool is still in `candidates`/`rejected`). The no-pool
 * reasons name every pool, as the spec asks.
 */
import {
  formatCompact,
  formatDuration,
  formatFixed1,
  formatSurplus,
  formatTime,
  windowLabel,
} from '../format';
import type { CandidateRow, EffortTier, TaskPin, TaskRoute, WindowKind } from '../types';
import { formatReserveClause } from './pool-eligibility';

/** The most pools a list inside a pick's reason line names before `+<n> more`. */
export const REASON_LIST_LIMIT = 10;

/**
 * Renders at most {@link REASON_LIST_LIMIT} items, then `+<n> more`; renders only what it prints.
 * `total` is the length of the whole list when `items` is only its head (at least the first
 * {@link REASON_LIST_LIMIT} items, in order), as `chooseRoute` passes it.
 */
function joinCapped<T>(
  items: readonly T[],
  render: (item: T) => string,
  separator: string,
  total = items.length,
): string {
  const shown = Math.min(items.length, REASON_LIST_LIMIT);
  const parts: string[] = new Array(shown);
  for (let i = 0; i < shown; i++) parts[i] = render(items[i]!);
  const rest = total - shown;
  return rest > 0 ? `${parts.join(separator)}${separator}+${rest} more` : parts.join(separator);
}

/**
 * How a pin's source prints inside `pinned to <label> (<source>)`: an operator's pin as the front
 * end names it (`shownAs`, e.g. `--worker-pool`; default `operator`), `step restart`, and
 * `the same pool (gate retry)`.
 */
export function formatPinSource(pin: Pick<TaskPin, 'source' | 'shownAs'>): string {
  switch (pin.source) {
    case 'gate-retry':
      return 'the same pool (gate retry)';
    case 'step-restart':
      return 'step restart';
    default:
      return pin.shownAs ?? 'operator';
  }
}

/**
 * `pinned to codex (--worker-pool) · surplus 12.3, 5h used 44%` — the `, 5h used …` part only
 * with a 5-hour reading; surplus is the pool's pace, `-` when unknown.
 */
export function formatPinClause(
  row: Pick<CandidateRow, 'poolLabel' | 'pace' | 'fiveHourUsedPct'>,
  pin: Pick<TaskPin, 'source' | 'shownAs'>,
): string {
  const fiveHour = row.fiveHourUsedPct === null ? '' : `, 5h used ${formatCompact(row.fiveHourUsedPct)}%`;
  return `pinned to ${row.poolLabel} (${formatPinSource(pin)}) · surplus ${formatSurplus(row.pace)}${fiveHour}`;
}

/**
 * `free pool first: opencode (free model opencode/union-alpha, 5h used 12.0%, 1 in flight) ·
 * metered pools ranked below free: codex 40.0, grok 12.3`. Numbers use one fixed decimal; the
 * model prints `CLI default` when the tier runs the CLI's own default; `5h used` only with a
 * reading; the metered part only when a metered candidate existed (their effective surplus, in
 * preference order). `meteredTotal`: how many metered candidates there are when `metered` is only
 * the head of that list (see `joinCapped`).
 */
export function formatFreeClause(
  chosen: Pick<CandidateRow, 'poolLabel' | 'model' | 'fiveHourUsedPct' | 'inflight'>,
  metered: readonly Pick<CandidateRow, 'poolLabel' | 'effectiveSurplus' | 'pace'>[],
  meteredTotal = metered.length,
): string {
  const parts = [`free model ${chosen.model ?? 'CLI default'}`];
  if (chosen.fiveHourUsedPct !== null) parts.push(`5h used ${formatFixed1(chosen.fiveHourUsedPct)}%`);
  parts.push(`${chosen.inflight} in flight`);
  const head = `free pool first: ${chosen.poolLabel} (${parts.join(', ')})`;
  if (meteredTotal === 0) return head;
  const below = joinCapped(
    metered,
    (row) => `${row.poolLabel} ${row.pace === null ? '-' : formatFixed1(row.effectiveSurplus)}`,
    ', ',
    meteredTotal,
  );
  return `${head} · metered pools ranked below free: ${below}`;
}

/**
 * `expiring soon: monthly-pool (urgency 1800, monthly resets in 2h 0m, surplus 5)`. The surplus is
 * the pool's pace (what urgency divides), `-` when unknown.
 */
export function formatUrgentClause(
  row: Pick<CandidateRow, 'poolLabel' | 'urgency' | 'pacingWindow' | 'resetsInMinutes' | 'pace'>,
): string {
  const resetsIn = row.resetsInMinutes === null ? '?' : formatDuration(row.resetsInMinutes);
  return (
    `expiring soon: ${row.poolLabel} (urgency ${formatCompact(row.urgency ?? 0)}, ` +
    `${row.pacingWindow} resets in ${resetsIn}, surplus ${formatSurplus(row.pace)})`
  );
}

/**
 * The effective surplus of a row as a reason line prints it: `-` when the pool's pace is unknown
 * (unmetered, or no reset known), as `bullswarm pools` prints `surplus=-` — never a made-up 0.
 */
export function formatEffectiveSurplus(row: Pick<CandidateRow, 'effectiveSurplus' | 'pace'>): string {
  return row.pace === null ? '-' : formatCompact(row.effectiveSurplus);
}

/** `tier assignment: codex for high (strategy assign) · surplus 12.3` (effective surplus). */
export function formatAssignmentClause(
  row: Pick<CandidateRow, 'poolLabel' | 'effectiveSurplus' | 'pace'>,
  tier: EffortTier,
): string {
  return `tier assignment: ${row.poolLabel} for ${tier} (strategy assign) · surplus ${formatEffectiveSurplus(row)}`;
}

/** `most-behind capable pool (surplus 40)` (effective surplus; `-` when the pace is unknown). */
export function formatMostBehindClause(row: Pick<CandidateRow, 'effectiveSurplus' | 'pace'>): string {
  return `most-behind capable pool (surplus ${formatEffectiveSurplus(row)})`;
}

/** `last mile: claude-code:acme 88.1% of 5h, a limit mid-attempt goes back to the caller`. */
export function formatLastMileTrailer(row: Pick<CandidateRow, 'poolLabel' | 'fiveHourUsedPct'>): string {
  return `last mile: ${row.poolLabel} ${formatCompact(row.fiveHourUsedPct ?? 0)}% of 5h, a limit mid-attempt goes back to the caller`;
}

/**
 * `forecast over 100% (still eligible; ranked last): codex 104.2%, grok 101%`. `total`: the
 * length of the list when `rows` is only its head (as in every list builder below).
 */
export function formatForecastOverTrailer(
  rows: readonly Pick<CandidateRow, 'poolLabel' | 'forecastFiveHourPct'>[],
  total = rows.length,
): string {
  const list = joinCapped(
    rows,
    (row) => `${row.poolLabel} ${formatCompact(row.forecastFiveHourPct ?? 0)}%`,
    ', ',
    total,
  );
  return `forecast over 100% (still eligible; ranked last): ${list}`;
}

type DrainingFields = Pick<CandidateRow, 'poolLabel' | 'forecastPacingPct' | 'pacingElapsedPct'>;

function drainingList(rows: readonly DrainingFields[], total: number): string {
  return joinCapped(
    rows,
    (row) =>
      `${row.poolLabel} ${formatCompact(row.forecastPacingPct ?? 0)}% (${formatCompact(row.pacingElapsedPct ?? 0)}% elapsed)`,
    ', ',
    total,
  );
}

/** `expiring but draining (forecast >= 95% and past its clock): grok 99.5% (98.8% elapsed)`. */
export function formatExpiringDrainingTrailer(rows: readonly DrainingFields[], total = rows.length): string {
  return `expiring but draining (forecast >= 95% and past its clock): ${drainingList(rows, total)}`;
}

/** `draining (forecast >= 95% and past its clock): grok 99.5% (90% elapsed)`. */
export function formatDrainingTrailer(rows: readonly DrainingFields[], total = rows.length): string {
  return `draining (forecast >= 95% and past its clock): ${drainingList(rows, total)}`;
}

/** `preferred over busier: codex (2 in flight), grok (1 in flight)`. */
export function formatPreferredOverBusierTrailer(
  rows: readonly Pick<CandidateRow, 'poolLabel' | 'inflight'>[],
  total = rows.length,
): string {
  return `preferred over busier: ${joinCapped(rows, (row) => `${row.poolLabel} (${row.inflight} in flight)`, ', ', total)}`;
}

/**
 * The route summary after `route: `, parts in a fixed order and empty lists omitted:
 * `providers.use=a,b; providers.avoid=anthropic; pools.use=codex,grok; pools.avoid=x;
 * independentOf=write-docs(openai),plan(anthropic,xai)`. Null when the route constrains nothing.
 */
export function formatRouteSummary(route: TaskRoute): string | null {
  const parts: string[] = [];
  const list = (name: string, values: readonly string[] | undefined) => {
    if (values?.length) parts.push(`${name}=${values.join(',')}`);
  };
  list('providers.use', route.providers?.use);
  list('providers.avoid', route.providers?.avoid);
  list('pools.use', route.pools?.use);
  list('pools.avoid', route.pools?.avoid);
  const independent = route.independentOf ?? [];
  if (independent.length > 0) {
    parts.push(
      `independentOf=${independent.map((u) => `${u.step}(${u.providerFamilies.join(',')})`).join(',')}`,
    );
  }
  return parts.length === 0 ? null : parts.join('; ');
}

/** `route: providers.avoid=anthropic; pools.use=codex,grok`. */
export function formatRouteTrailer(summary: string): string {
  return `route: ${summary}`;
}

/**
 * `excluded: opencode probe: 404; claude-code:acme auth: credential group claude` — each excluded
 * pool as `<label> <reason>` (the caller's reason verbatim), joined with `; `.
 */
export function formatExcludedTrailer(entries: readonly { label: string; reason: string }[]): string {
  return `excluded: ${joinCapped(entries, (e) => `${e.label} ${e.reason}`, '; ')}`;
}

/**
 * ` (burst-gated: pool-a, pool-b at its weekly limit, pool-c inside its 15% weekly reserve)` —
 * appended to the reason with a leading space. A bare label is at its 5-hour limit; a pool left
 * out for its reserve (`reservePct`) says which reserve.
 */
export function formatBurstGatedSuffix(
  entries: readonly { label: string; window: WindowKind; reservePct?: number }[],
): string {
  const list = joinCapped(
    entries,
    (e) =>
      e.reservePct !== undefined && e.reservePct > 0
        ? `${e.label} ${formatReserveClause(e.window, e.reservePct)}`
        : e.window === 'five_hour'
          ? e.label
          : `${e.label} at its ${windowLabel(e.window)} limit`,
    ', ',
  );
  return ` (burst-gated: ${list})`;
}

/**
 * `uses its 15% weekly reserve (pinned)` — the trailer of a pinned pick whose pool is inside the
 * reserve it keeps on that window: a pin may spend the reserve, and the reason says so.
 */
export function formatPinnedReserveTrailer(window: WindowKind, reservePct: number): string {
  return `uses its ${formatCompact(reservePct)}% ${windowLabel(window)} reserve (pinned)`;
}

/**
 * `no pool with quota to spare: pool-a at its 5-hour limit until <time>; pool-b nearly spent
 * (forecast 99.5%) until <time>` — each entry is `<label> <rejection reason>`.
 */
export function formatNoPoolWithQuota(entries: readonly { label: string; reason: string }[]): string {
  return `no pool with quota to spare: ${entries.map((e) => `${e.label} ${e.reason}`).join('; ')}`;
}

/** `no eligible pool: codex disabled; grok no model for tier high` (`no pools` for an empty list). */
export function formatNoEligiblePool(entries: readonly { label: string; reason: string }[]): string {
  if (entries.length === 0) return 'no eligible pool: no pools';
  return `no eligible pool: ${entries.map((e) => `${e.label} ${e.reason}`).join('; ')}`;
}

/** The draining rejection reason: `nearly spent (forecast 99.5%) until 2026-11-30T11:00:00Z`. */
export function formatNearlySpent(forecastPct: number, resetsAt: number | null): string {
  const until = resetsAt === null ? '' : ` until ${formatTime(resetsAt)}`;
  return `nearly spent (forecast ${formatCompact(forecastPct)}%)${until}`;
}

/**
 * `forecast: inflight=0 5h ?%->?% expected=5.67m rate=unmeasured basis=bootstrap` —
 * `5h <projected>%-><forecast>%` (`?` unknown), expected minutes with 2 decimals, the pacing
 * window's rate as `<n>/min` with 3 decimals, basis `bootstrap` or `recorded n=<samples>`.
 */
export function formatForecastLine(
  row: Pick<
    CandidateRow,
    | 'inflight'
    | 'projectedFiveHourPct'
    | 'forecastFiveHourPct'
    | 'expectedMinutes'
    | 'ratePerMinute'
    | 'estimateSource'
    | 'estimateSamples'
  >,
): string {
  const pct = (value: number | null) => (value === null ? '?' : formatCompact(value));
  const rate = row.ratePerMinute === null ? 'unmeasured' : `${row.ratePerMinute.toFixed(3)}/min`;
  const basis = row.estimateSource === 'bootstrap' ? 'bootstrap' : `recorded n=${row.estimateSamples}`;
  return (
    `forecast: inflight=${row.inflight} 5h ${pct(row.projectedFiveHourPct)}%->${pct(row.forecastFiveHourPct)}% ` +
    `expected=${row.expectedMinutes.toFixed(2)}m rate=${rate} basis=${basis}`
  );
}
