import { type CommandContext, printJson } from '../../cli/command-context';
import { iso, planOf, printLines, selfOf, withSwarm } from './swarm-command-support';

/** `bullswarm task claim <task> --plan <P>`: take a task (refused to an agent that handed it off). */
export async function taskClaimCommand(
  context: CommandContext,
  task: string,
  options: { plan?: string; as?: string },
): Promise<void> {
  const { loadPlan, SwarmInputError } = await import('@bullswarm/swarm');
  await withSwarm(
    context,
    async (swarm) => {
      const plan = await planOf(context, swarm, options.plan);
      const doc = loadPlan(plan);
      if (!doc.tasks.some((t) => t.id === task)) {
        throw new SwarmInputError({
          field: 'task',
          expected: `a task of ${plan.label}: ${doc.tasks.map((t) => t.id).join(', ')}`,
          received: task,
        });
      }
      const address = await selfOf(context, options.as);
      await swarm.tasks.claim(plan, { task, address });
      context.io.out(`${address} executes task ${task} of ${plan.label}\n`);
    },
    { task: '<task>' },
  );
}

/** `bullswarm task done <task> --plan <P> [--evidence <path>]…`: its gate passed. */
export async function taskDoneCommand(
  context: CommandContext,
  task: string,
  options: { plan?: string; as?: string; evidence?: readonly string[] },
): Promise<void> {
  await withSwarm(
    context,
    async (swarm) => {
      const plan = await planOf(context, swarm, options.plan);
      const address = await selfOf(context, options.as);
      await swarm.tasks.complete(plan, { task, address, evidence: options.evidence ?? [] });
      context.io.out(`task ${task} of ${plan.label} done by ${address}\n`);
    },
    { task: '<task>' },
  );
}

/**
 * `bullswarm plan status --plan <P> [--json]`: each task done, blocked (an open escalation on it
 * or upstream), running, ready or waiting; the lead record; open escalations; and whether the plan
 * is parked (no declared account has room and none resets within its horizon), with the soonest
 * reset recorded.
 */
export async function planStatusCommand(
  context: CommandContext,
  options: { plan?: string; json?: boolean },
): Promise<void> {
  const { formatHorizon, loadPlan, planHorizonMs, planStatus } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const doc = loadPlan(plan);
    const open = await swarm.escalations.list(plan, { open: true });
    const status = planStatus(doc, await swarm.tasks.list(plan), open);
    const record = await swarm.leads.get(plan);
    const park = await swarm.parks.current(plan);
    const horizonMs = planHorizonMs(doc);
    if (options.json) {
      printJson(context, {
        plan: plan.label,
        repo: plan.repo,
        lead: record ?? null,
        horizon: formatHorizon(horizonMs),
        horizonMs,
        parked:
          park === undefined
            ? null
            : {
                since: iso(park.parkedAt),
                by: park.parkedBy,
                task: park.task ?? null,
                kind: park.kind,
                soonestReset:
                  park.soonestReset === undefined
                    ? null
                    : { poolId: park.soonestReset.poolId, at: iso(park.soonestReset.at) },
                horizon: formatHorizon(park.horizonMs),
                reason: park.reason,
                escalation: park.escalationId ?? null,
              },
        tasks: status.map((s) => ({ ...s, holder: s.holder ?? null })),
        openEscalations: open,
      });
      return;
    }
    printLines(context, [
      `plan ${plan.label}: ${record ? `lead ${record.lead} epoch ${record.epoch}${record.releasedAt ? ' (released)' : ''}` : 'no lead record'}; horizon ${formatHorizon(horizonMs)}`,
      ...(park === undefined
        ? []
        : [
            `PARKED since ${iso(park.parkedAt)}: ${park.reason}; soonest reset ${park.soonestReset === undefined ? 'unknown' : `${iso(park.soonestReset.at)} (${park.soonestReset.poolId})`}; escalation #${park.escalationId ?? '-'} (C7) — it moves again when an account is assigned or the developer answers`,
          ]),
      ...status.map(
        (s) =>
          `  ${s.task} ${s.state}${s.holder ? ` (${s.holder})` : ''}${s.blockedBy.length > 0 ? ` by escalation ${s.blockedBy.map((id) => `#${id}`).join(', ')}` : ''}${s.waitingFor.length > 0 && s.state === 'waiting' ? ` for ${s.waitingFor.join(', ')}` : ''}`,
      ),
    ]);
  });
}
