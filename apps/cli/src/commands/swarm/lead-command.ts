import type { LeadRecord, SuccessionCandidate } from '@bullswarm/swarm';
import { CliExit } from '../../cli/cli-errors';
import { type CommandContext, printJson } from '../../cli/command-context';
import { leadPacketLines } from './lead-packet-lines';
import { iso, parseInteger, planOf, printLines, selfOf, withSwarm } from './swarm-command-support';

/**
 * The effective succession in takeover order, each entry with where it comes from: the
 * succession list, then the successor-designate, the lanes in launch order, then agents
 * registered on the lead's host (see `LeadBook.effectiveSuccession`).
 */
function describeSuccession(candidates: readonly SuccessionCandidate[]): string {
  return `takeover order ${candidates.map((c) => `${c.address} (${c.source})`).join(', ') || '- (nobody can take over)'}`;
}

function describeRecord(record: LeadRecord): string[] {
  return [
    `plan ${record.label} (${record.plan.repo})`,
    `lead ${record.lead} epoch ${record.epoch}${record.releasedAt === undefined ? '' : ` RELEASED ${iso(record.releasedAt)}`}`,
    `succession ${record.succession.join(', ') || '-'}`,
    `lanes ${record.lanes.join(', ') || '-'}`,
  ];
}

/** Options of `bullswarm lead claim`. */
export interface LeadClaimOptions {
  readonly plan?: string;
  readonly succession?: string;
  readonly lanes?: string;
  readonly as?: string;
  readonly json?: boolean;
}

/** `bullswarm lead claim --plan <P> [--succession <A,B>] [--lanes <A,B>]`: before launching any lane. */
export async function leadClaimCommand(context: CommandContext, options: LeadClaimOptions): Promise<void> {
  const { checkPlanTiers, loadPlan, parseAddressList } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm, runtime) => {
    const plan = await planOf(context, swarm, options.plan);
    const address = await selfOf(context, options.as);
    // Validated as `plan status` does (exit 2 naming file and field), plus each task's tier.
    checkPlanTiers(runtime, loadPlan(plan), plan.planFile);
    const { record, change } = await swarm.leads.claim(plan, {
      address,
      ...(options.succession === undefined
        ? {}
        : { succession: parseAddressList(options.succession, '--succession') }),
      ...(options.lanes === undefined ? {} : { lanes: parseAddressList(options.lanes, '--lanes') }),
    });
    if (options.json) printJson(context, { change, record });
    else
      printLines(context, [`${change} plan ${record.label}: lead ${record.lead} at epoch ${record.epoch}`]);
  });
}

/**
 * `bullswarm lead show --plan <P> [--json]`: the record and every change of it, the takeover
 * order, and the newest lead packet's lane table, release order and pending merges.
 */
export async function leadShowCommand(
  context: CommandContext,
  options: { plan?: string; json?: boolean },
): Promise<void> {
  const { readHandoffPacket } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const record = await swarm.leads.get(plan);
    const history = await swarm.leads.history(plan);
    const newest = (await swarm.handoffs.list(plan)).filter((h) => h.task === 'lead').at(-1);
    let leadPacket:
      | { path: string; packet?: ReturnType<typeof readHandoffPacket>; problem?: string }
      | undefined;
    if (newest !== undefined) {
      try {
        leadPacket = { path: newest.packetPath, packet: readHandoffPacket(newest.packetPath) };
      } catch (error) {
        leadPacket = { path: newest.packetPath, problem: (error as Error).message };
      }
    }
    // A released plan has no lead to take over from: it is claimed again, not taken over.
    const released = record?.releasedAt !== undefined;
    const effectiveSuccession = released ? [] : await swarm.leads.effectiveSuccession(plan);
    if (options.json) {
      printJson(context, {
        record: record ?? null,
        effectiveSuccession,
        history,
        leadPacket:
          leadPacket === undefined || newest === undefined
            ? null
            : {
                path: leadPacket.path,
                author: newest.author,
                acceptedBy: newest.acceptedBy ?? null,
                lanes: leadPacket.packet?.lanes ?? null,
                releaseOrder: leadPacket.packet?.releaseOrder ?? null,
                pendingMerges: leadPacket.packet?.pendingMerges ?? null,
                ...(leadPacket.problem === undefined ? {} : { problem: leadPacket.problem }),
              },
      });
      return;
    }
    if (!record) {
      context.io.out(
        `plan ${plan.label} has no lead record (claim it with \`bullswarm lead claim --plan ${plan.id}\`)\n`,
      );
      return;
    }
    const lead = await swarm.agents.reachability(record.lead);
    printLines(context, [
      ...describeRecord(record),
      released ? 'takeover order - (released: claim it again)' : describeSuccession(effectiveSuccession),
      `lead is ${lead.reachable ? 'reachable' : 'UNREACHABLE'} (${lead.why})`,
      ...history.map(
        (e) =>
          `  ${iso(e.at)} ${e.kind} epoch ${e.epoch}${e.lead ? ` lead ${e.lead}` : ''}${e.reason ? ` (${e.reason})` : ''}`,
      ),
      ...(leadPacket === undefined || newest === undefined
        ? []
        : [
            `lead packet ${leadPacket.path} by ${newest.author}, accepted by ${newest.acceptedBy ?? '-'}`,
            ...(leadPacket.packet === undefined
              ? [`  (unreadable: ${leadPacket.problem})`]
              : leadPacketLines(leadPacket.packet).map((line) => `  ${line}`)),
          ]),
    ]);
  });
}

/** `bullswarm lead resolve --plan <P>`: prints the current lead's address (what `lead` resolves to). */
export async function leadResolveCommand(context: CommandContext, options: { plan?: string }): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    context.io.out(`${await swarm.leads.resolve(plan)}\n`);
  });
}

/** `bullswarm lead handover <addr> --plan <P>`: epoch + 1, every lane notified. */
export async function leadHandoverCommand(
  context: CommandContext,
  to: string,
  options: { plan?: string; as?: string; epoch?: string; json?: boolean },
): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const from = await selfOf(context, options.as);
    const epoch = parseInteger(options.epoch, '--epoch');
    const record = await swarm.leads.handover(plan, { from, to, ...(epoch === undefined ? {} : { epoch }) });
    if (options.json) printJson(context, record);
    else context.io.out(`handed ${record.label} over to ${record.lead} at epoch ${record.epoch}\n`);
  });
}

/** `bullswarm lead takeover --plan <P> [--epoch <n>] [--reason …]`: the first reachable entry of the effective succession; epoch + 1. */
export async function leadTakeoverCommand(
  context: CommandContext,
  options: { plan?: string; as?: string; epoch?: string; reason?: string; json?: boolean },
): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const address = await selfOf(context, options.as);
    const epoch = parseInteger(options.epoch, '--epoch');
    const record = await swarm.leads.takeover(plan, {
      address,
      ...(epoch === undefined ? {} : { epoch }),
      ...(options.reason === undefined ? {} : { reason: options.reason as 'unreachable' }),
    });
    if (options.json) printJson(context, record);
    else context.io.out(`${record.lead} took over ${record.label} at epoch ${record.epoch}\n`);
  });
}

/** `bullswarm lead release --plan <P> [--epoch <n>]`: the plan is done (current lead only). */
export async function leadReleaseCommand(
  context: CommandContext,
  options: { plan?: string; as?: string; epoch?: string },
): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const address = await selfOf(context, options.as);
    const epoch = parseInteger(options.epoch, '--epoch');
    const record = await swarm.leads.release(plan, { address, ...(epoch === undefined ? {} : { epoch }) });
    context.io.out(`released ${record.label} at epoch ${record.epoch}\n`);
  });
}

/** `bullswarm lead designate <addr> --plan <P>`: the successor-designate (first in the succession list). */
export async function leadDesignateCommand(
  context: CommandContext,
  designate: string,
  options: { plan?: string; as?: string; epoch?: string },
): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const from = await selfOf(context, options.as);
    const epoch = parseInteger(options.epoch, '--epoch');
    const record = await swarm.leads.designate(plan, {
      from,
      designate,
      ...(epoch === undefined ? {} : { epoch }),
    });
    context.io.out(
      `successor-designate of ${record.label}: ${designate} (succession ${record.succession.join(', ')})\n`,
    );
  });
}

/**
 * `bullswarm lead check --plan <P> --epoch <n> [--as <addr>]`: a returning lead checks it still
 * leads. Exit 0 when it does; exit 1 (and the step-down recorded) when a higher epoch exists.
 */
export async function leadCheckCommand(
  context: CommandContext,
  options: { plan?: string; as?: string; epoch?: string; json?: boolean },
): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const address = await selfOf(context, options.as);
    const epoch = parseInteger(options.epoch, '--epoch')!;
    const check = await swarm.leads.checkLeadership(plan, { address, epoch });
    if (options.json) printJson(context, check);
    else if (check.current) context.io.out(`${address} leads ${check.record.label} at epoch ${epoch}\n`);
    else context.io.out(`step down: ${check.why}; ${check.record.lead} leads ${check.record.label}\n`);
    if (!check.current) throw new CliExit(1);
  });
}

/**
 * `bullswarm lead fence --plan <P> --epoch <n> [--as <addr>] [--remote <name>] -- <command…>`: runs
 * a merge, tag or release command only when the epoch is current and the remote has not moved past
 * the checkout (read first; one stderr line says what was read); its exit code is the command's.
 */
export async function leadFenceCommand(
  context: CommandContext,
  command: readonly string[],
  options: { plan?: string; as?: string; epoch?: string; remote?: string },
): Promise<void> {
  const { runFenced } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const epoch = parseInteger(options.epoch, '--epoch')!;
    const address = options.as === undefined ? undefined : await selfOf(context, options.as);
    const run = await runFenced(swarm, {
      plan,
      epoch,
      ...(address === undefined ? {} : { address }),
      command,
      cwd: context.io.cwd,
      env: context.io.env,
      ...(options.remote === undefined ? {} : { remote: options.remote }),
    });
    context.io.err(
      run.remote.checked
        ? `remote ${run.remote.remote} read first: ${run.remote.refs.map((r) => `${r.ref} ${r.remoteHead === null ? '-' : r.remoteHead.slice(0, 12)} (${r.why})`).join(', ')}\n`
        : `remote not read: ${run.remote.why}\n`,
    );
    if (run.stdout !== '') context.io.out(run.stdout.endsWith('\n') ? run.stdout : `${run.stdout}\n`);
    if (run.stderr !== '') context.io.err(run.stderr.endsWith('\n') ? run.stderr : `${run.stderr}\n`);
    if (run.exitCode !== 0) throw new CliExit(run.exitCode);
  });
}
