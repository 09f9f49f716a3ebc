import { join } from 'node:path';
import type { MeterWindow, WindowKind } from '@bullswarm/pacing';
import { DEFAULT_WINDOW_MINUTES, formatCompact, formatTime } from '@bullswarm/pacing/internal';
import { CliUsageError } from '../cli/cli-errors';
import { readAll } from '../cli/cli-io';
import {
  type CommandContext,
  openCliHome,
  openCliRuntime,
  printJson,
  usableCliLabels,
  userHomeOf,
} from '../cli/command-context';
import {
  parseInstant,
  parseKeyValue,
  parsePct,
  parseWindowName,
  windowFlagName,
} from '../parse/parse-options';
import { describeWindow, manualReadingAdvice, mergeManualReading } from './manual-reading';

/** Options of `bullswarm meters set`. */
export interface MetersSetOptions {
  readonly '5h'?: string;
  readonly weekly?: string;
  readonly monthly?: string;
  readonly resetsAt?: readonly string[];
  readonly json?: boolean;
}

async function openHomeFor(context: CommandContext) {
  const { createClock } = await import('@bullswarm/store');
  const home = await openCliHome(context);
  // Names a label equal to another pool's id (ignored when resolving `<pool>`) on stderr.
  await usableCliLabels(context, home);
  return { home, clock: createClock(context.io.env) };
}

/**
 * Builds the windows of a manual reading from the flags. At least one of `--5h`, `--weekly`,
 * `--monthly` is required; `--resets-at <window>=<iso>` may only name a window being set.
 */
export function manualWindows(options: MetersSetOptions): MeterWindow[] {
  const used: [WindowKind, string | undefined, string][] = [
    ['five_hour', options['5h'], '--5h'],
    ['weekly', options.weekly, '--weekly'],
    ['monthly', options.monthly, '--monthly'],
  ];
  const resets = new Map<WindowKind, number>();
  for (const value of options.resetsAt ?? []) {
    const [name, iso] = parseKeyValue(
      value,
      '--resets-at',
      '<window>=<iso>, e.g. weekly=2026-12-01T00:00:00Z',
    );
    resets.set(parseWindowName(name, '--resets-at'), parseInstant(iso, '--resets-at'));
  }
  const windows: MeterWindow[] = [];
  for (const [kind, value, flag] of used) {
    if (value === undefined) continue;
    const resetsAt = resets.get(kind);
    windows.push({
      kind,
      usedPct: parsePct(value, flag, 100),
      windowMinutes: DEFAULT_WINDOW_MINUTES[kind],
      ...(resetsAt === undefined ? {} : { resetsAt }),
    });
    resets.delete(kind);
  }
  if (windows.length === 0) {
    throw new CliUsageError({
      message: 'meters set needs at least one of --5h <pct>, --weekly <pct>, --monthly <pct>',
      flag: '--5h/--weekly/--monthly',
    });
  }
  const orphan = [...resets.keys()][0];
  if (orphan !== undefined) {
    const name = windowFlagName(orphan);
    throw new CliUsageError({
      message: `--resets-at names the ${name} window, which is not being set: add --${name} <pct>`,
      flag: '--resets-at',
    });
  }
  return windows;
}

/**
 * `bullswarm meters set <pool> …`: a manual reading, which replaces the pool's meter source (shown
 * `[manual]` in `bullswarm pools`) until `meters clear`. It is laid over the pool's earlier manual
 * reading ({@link mergeManualReading}: the windows it does not name are kept), and a reading that
 * leaves the pool unpaced says on stderr what to add ({@link manualReadingAdvice}).
 */
export async function metersSetCommand(
  context: CommandContext,
  ref: string,
  options: MetersSetOptions,
): Promise<void> {
  const given = manualWindows(options);
  const runtime = await openCliRuntime(context);
  try {
    const poolId = runtime.home.resolvePoolRef(ref);
    const pool = runtime.state.pools.find((candidate) => candidate.id === poolId);
    const store = await runtime.requireStore();
    const now = runtime.clock();
    const merged = mergeManualReading(given, (await store.meters.getManual(poolId))?.windows ?? [], now);
    await store.meters.setManual(poolId, merged.windows, now);
    const pacingWindow =
      pool?.subscription?.quotaWindow ??
      (pool === undefined ? undefined : runtime.connectors.get(pool.connector)?.pacingWindow) ??
      'weekly';
    const advice = manualReadingAdvice(merged.windows, {
      ref,
      pacingWindow,
      subscriptionResets:
        pool?.subscription?.resetsAt !== undefined && pool.subscription.quotaWindow === pacingWindow,
    });
    if (options.json) {
      const json = (w: MeterWindow) => ({
        ...w,
        resetsAt: w.resetsAt === undefined ? null : formatTime(w.resetsAt),
      });
      printJson(context, {
        poolId,
        setAt: formatTime(now),
        windows: merged.windows.map(json),
        kept: merged.kept.map(json),
        dropped: merged.dropped.map(json),
        pacingWindow,
        advice,
      });
      return;
    }
    const named = merged.windows.filter((w) => !merged.kept.includes(w));
    const parts = [`${ref} meter set by hand: ${named.map(describeWindow).join(', ')}`];
    if (merged.resetKept.length > 0) {
      parts.push(
        `(the reset of ${merged.resetKept.map(windowFlagName).join(', ')} kept from the earlier reading)`,
      );
    }
    context.io.out(`${parts.join(' ')}\n`);
    if (merged.kept.length > 0) {
      context.io.out(
        `kept from the earlier reading: ${merged.kept.map(describeWindow).join(', ')} (\`bullswarm meters clear ${ref}\` drops every window)\n`,
      );
    }
    for (const window of merged.dropped) {
      context.io.out(`dropped the earlier ${describeWindow(window)}: that window has reset since\n`);
    }
    for (const line of advice) context.io.err(`${context.errColors.yellow('warning')}: ${line}\n`);
  } finally {
    await runtime.close();
  }
}

/** `bullswarm meters clear <pool>`: drops the manual reading; the pool's source is read again. */
export async function metersClearCommand(context: CommandContext, ref: string): Promise<void> {
  const { home, clock } = await openHomeFor(context);
  const poolId = home.resolvePoolRef(ref);
  const { openHomeStoreIfExists } = await import('@bullswarm/store');
  const store = await openHomeStoreIfExists(home, { env: context.io.env });
  try {
    const had = (await store?.meters.getManual(poolId)) !== undefined;
    await store?.meters.setManual(poolId, undefined, clock());
    context.io.out(had ? `${ref}: manual reading cleared\n` : `${ref} had no manual reading\n`);
  } finally {
    await store?.close();
  }
}

/**
 * `bullswarm meters claude-statusline [--config-dir d]`, for Claude Code's `statusLine` setting:
 * reads the JSON Claude Code passes on stdin, captures its `rate_limits` into
 * `<configDir>/bullswarm-statusline.json` (what the `claude-code` meter reads first), and prints one
 * status line: the model, then `5h <n>% · week <n>%` when Claude sent them. Before Claude's first
 * response (no `rate_limits` yet) the capture is left as it was. stdin that is not JSON → exit 2.
 */
export async function metersClaudeStatuslineCommand(
  context: CommandContext,
  options: { configDir?: string },
): Promise<void> {
  const configDir =
    options.configDir ??
    nonEmpty(context.io.env.CLAUDE_CONFIG_DIR) ??
    join(userHomeOf(context.io), '.claude');
  const stdin = await readAll(context.io.stdin);
  const { parseJsonText } = await import('@bullswarm/connectors/internal');
  const read = parseJsonText(stdin);
  if (!read.ok) {
    throw new CliUsageError({
      message: `meters claude-statusline: stdin ${read.problem}; Claude Code passes its status as JSON on stdin`,
      flag: 'stdin',
    });
  }
  const input = read.value;
  const [{ captureClaudeStatusline }, { createClock }] = await Promise.all([
    import('@bullswarm/meters'),
    import('@bullswarm/store'),
  ]);
  const reading = await captureClaudeStatusline(input, configDir, { now: createClock(context.io.env) });
  const model = (input as { model?: { display_name?: unknown } } | null)?.model?.display_name;
  const parts: string[] = [];
  if (typeof model === 'string' && model !== '') parts.push(model);
  for (const window of reading?.windows ?? []) {
    parts.push(`${window.kind === 'five_hour' ? '5h' : 'week'} ${formatCompact(window.usedPct)}%`);
  }
  context.io.out(`${parts.length === 0 ? 'bullswarm' : parts.join(' · ')}\n`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
