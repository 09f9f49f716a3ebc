import type { CapacityVerdictKind } from '@bullswarm/pacing';
import { formatCapacityLine } from '@bullswarm/pacing/internal';

/**
 * What an agent does about its room (swarm-autonomy, "The capacity loop"): `continue`, `prepare`
 * or `hand-off` (the spec's "hand off", written as one word so the capacity line stays a row of
 * space-separated tokens).
 */
export type CapacityDecision = 'continue' | 'prepare' | 'hand-off';

/** The decision of each verdict: ok → continue, low → prepare, critical → hand off, unknown → continue. */
export const CAPACITY_DECISIONS: Readonly<Record<CapacityVerdictKind, CapacityDecision>> = {
  ok: 'continue',
  low: 'prepare',
  critical: 'hand-off',
  unknown: 'continue',
};

/** What a lane and a lead do on each verdict, in the spec's words. */
export const CAPACITY_ACTIONS: Readonly<
  Record<CapacityVerdictKind, { readonly lane: string; readonly lead: string }>
> = {
  ok: { lane: 'continues', lead: 'continues' },
  low: {
    lane: 'finishes the current task, starts none it cannot finish, reports capacity=low',
    lead: 'names a successor-designate and launches no long work on itself',
  },
  critical: {
    lane: 'reaches the next safe point, writes the packet, notifies the lead, stops',
    lead: 'hands over the leadership now',
  },
  unknown: {
    lane: 'reports capacity=unknown, hands off on a CLI limit warning or a usage_limit screen',
    lead: 'prefers known-capacity lanes for long tasks',
  },
};

/**
 * The capacity line agents end their messages with, carrying its decision:
 * `capacity=ok 64% @work1 decision=continue`, `capacity=low 20% @work1 decision=prepare`,
 * `capacity=critical 8% @work1 decision=hand-off`, `capacity=unknown @self decision=continue`.
 */
export function capacityLine(
  verdict: { readonly verdict: CapacityVerdictKind; readonly freePct: number | null },
  label: string,
): string {
  return `${formatCapacityLine(verdict, label)} decision=${CAPACITY_DECISIONS[verdict.verdict]}`;
}
