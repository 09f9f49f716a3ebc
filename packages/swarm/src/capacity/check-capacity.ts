import type { BullswarmRuntime } from '@bullswarm/dispatch';
import { appendJournal } from '../plans/journal';
import type { PlanLocation } from '../plans/plan-location';
import type { SwarmEnv } from '../settings/swarm-env';
import { type CapacityReport, type ReadCapacityOptions, readCapacity } from './read-capacity';

/** Options of {@link checkCapacity}. */
export interface CheckCapacityOptions extends ReadCapacityOptions {
  /** The plan whose journal records the verdict (an observation, `capacity.checked`). */
  readonly plan?: PlanLocation;
  /** Who checked (the agent's address). */
  readonly by?: string;
  readonly env?: SwarmEnv;
}

/**
 * A capacity check at a task boundary: {@link readCapacity}, and when a plan is given, the verdict
 * is journalled as an observation (`capacity.checked`, with the capacity line and why).
 */
export async function checkCapacity(
  runtime: BullswarmRuntime,
  options: CheckCapacityOptions,
): Promise<CapacityReport> {
  const report = await readCapacity(runtime, options);
  if (options.plan) {
    appendJournal(
      options.plan.journalFile,
      {
        type: 'observation',
        event: 'capacity.checked',
        plan: options.plan.id,
        ...(options.by === undefined ? {} : { by: options.by }),
        verdict: report.verdict,
        decision: report.decision,
        line: report.line,
        pool: report.poolId,
        reason: report.reason,
      },
      runtime.clock(),
    );
  }
  return report;
}
