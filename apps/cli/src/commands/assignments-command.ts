import { formatTime } from '@bullswarm/pacing/internal';
import { type CommandContext, openCliHome, printJson, usableCliLabels } from '../cli/command-context';
import { alignColumns } from '../output/align-columns';
import { formatSeconds, formatShortDuration } from '../output/format-seconds';

/** One in-flight entry as `bullswarm assignments` shows it. */
export interface AssignmentRow {
  readonly id: string;
  readonly poolId: string;
  readonly poolLabel: string;
  readonly action: string;
  readonly lane: string | null;
  readonly tier: string | null;
  /** ISO-8601. */
  readonly startedAt: string;
  readonly elapsedMinutes: number;
  readonly expectedMinutes: number | null;
  /** The bullswarm process that dispatched the work. */
  readonly pid: number;
  /** The agent process, once spawned. */
  readonly workerPid: number | null;
  readonly host: string;
}

/**
 * `bullswarm assignments [--json]`: what is in flight now across every bullswarm process sharing
 * this home's store — this machine's processes, or every host's on a shared Postgres store (the
 * ledger; entries of dead processes, and of hosts silent past the TTL, are reaped before listing).
 * A home without a store yet has nothing in flight, and nothing is created.
 */
export async function assignmentsCommand(
  context: CommandContext,
  options: { json?: boolean },
): Promise<void> {
  const home = await openCliHome(context);
  const { createClock, openHomeStoreIfExists, poolLabel } = await import('@bullswarm/store');
  const now = createClock(context.io.env)();
  const labels = await usableCliLabels(context, home);
  // Every bullswarm process sharing the store: this home's, or every host's on a shared Postgres.
  const store = await openHomeStoreIfExists(home, { env: context.io.env });
  let rows: AssignmentRow[] = [];
  try {
    rows = ((await store?.ledger.list()) ?? [])
      .sort((a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : 1))
      .map((entry) => ({
        id: entry.id,
        poolId: entry.poolId,
        poolLabel: poolLabel(entry.poolId, labels),
        action: entry.action,
        lane: entry.lane ?? null,
        tier: entry.tier ?? null,
        startedAt: new Date(entry.startedAt).toISOString(),
        elapsedMinutes: Math.max(0, (now - entry.startedAt) / 60_000),
        expectedMinutes: entry.expectedMinutes ?? null,
        pid: entry.pid,
        workerPid: entry.workerPid ?? null,
        host: entry.host,
      }));
  } finally {
    await store?.close();
  }
  if (options.json) {
    printJson(context, { now: new Date(now).toISOString(), inflight: rows });
    return;
  }
  if (rows.length === 0) {
    context.io.out('nothing in flight\n');
    return;
  }
  const table = rows.map((row) => [
    row.poolLabel,
    row.action,
    `started ${formatTime(Date.parse(row.startedAt))} (${formatShortDuration(row.elapsedMinutes)} ago)`,
    `expected ${row.expectedMinutes === null ? '?' : row.expectedMinutes < 1 ? formatSeconds(row.expectedMinutes) : `${row.expectedMinutes.toFixed(1)}m`}`,
    `pid ${row.pid}`,
    `worker ${row.workerPid ?? '-'}`,
  ]);
  for (const line of alignColumns(table)) context.io.out(`${line}\n`);
}
