import { resolve } from 'node:path';
import { readJsonFile } from '@bullswarm/connectors/internal';
import type { HandoffContent, HandoffItem, HandoffReason } from '@bullswarm/swarm';
import { CliExit, CliUsageError } from '../../cli/cli-errors';
import { type CommandContext, printJson } from '../../cli/command-context';
import { leadPacketLines } from './lead-packet-lines';
import { planOf, printLines, selfOf, withSwarm } from './swarm-command-support';

/** Options of `bullswarm handoff write`. */
export interface HandoffWriteOptions {
  readonly plan?: string;
  readonly task: string;
  readonly step: string;
  readonly reason: string;
  readonly content?: string;
  readonly done?: readonly string[];
  readonly verified?: readonly string[];
  readonly notVerified?: readonly string[];
  readonly next?: readonly string[];
  readonly ask?: readonly string[];
  readonly decision?: readonly string[];
  readonly releaseOrder?: string;
  readonly pendingMerge?: readonly string[];
  readonly cwd?: string;
  readonly as?: string;
  readonly notify?: boolean;
  readonly json?: boolean;
}

/** `<what>[ :: <path>,<path>]` → an item with evidence paths. */
function item(value: string): HandoffItem {
  const at = value.indexOf(' :: ');
  if (at === -1) return { what: value.trim(), evidence: [] };
  return {
    what: value.slice(0, at).trim(),
    evidence: value
      .slice(at + 4)
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== ''),
  };
}

function readContent(
  context: CommandContext,
  file: string | undefined,
  parse: (json: unknown) => HandoffContent,
): HandoffContent {
  if (file === undefined) return {};
  const path = resolve(context.io.cwd, file);
  // The one reader of user-written JSON: line and column, never the file's text.
  const read = readJsonFile(path);
  if (!read.ok) throw new CliUsageError({ message: `--content ${path} ${read.problem}`, flag: '--content' });
  return parse(read.value);
}

/**
 * `bullswarm handoff write --plan <P> --task <T> --step <S> --reason <R> …`: writes a
 * dwp-handoff/v1 packet under the plan's analysis_results/handoff/ (0600), where the work is read
 * from git, refused if it carries a secret, and sends `handoff <path>` to the lead.
 */
export async function handoffWriteCommand(
  context: CommandContext,
  options: HandoffWriteOptions,
): Promise<void> {
  const { git, handoffContentSchema, readCapacity, writeHandoffPacket } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm, runtime) => {
    const plan = await planOf(context, swarm, options.plan);
    const author = await selfOf(context, options.as);
    const fromFile = readContent(context, options.content, (json) => {
      const parsed = handoffContentSchema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new CliUsageError({
          message: `--content ${options.content}: ${issue.path.join('.') || '(root)'}: ${issue.message} (fields: done, verified, notVerified, next, openAsks, decisions; for a lead packet lanes, releaseOrder, pendingMerges)`,
          flag: '--content',
        });
      }
      return parsed.data;
    });
    const asks = (options.ask ?? []).map((value) => {
      const at = value.indexOf('=');
      if (at <= 0)
        throw new CliUsageError({
          message: `--ask "${value}" is not valid: expected <addr>=<text>`,
          flag: '--ask',
        });
      return { to: value.slice(0, at), text: value.slice(at + 1) };
    });
    const checkout = resolve(context.io.cwd, options.cwd ?? '.');
    const merges = (options.pendingMerge ?? []).map((value) => {
      const [branch, into, ...rest] = value.split(':');
      if (!branch || into === '' || rest.length > 0) {
        throw new CliUsageError({
          message: `--pending-merge "${value}" is not valid: expected <branch> or <branch>:<into> (into defaults to the checkout's branch)`,
          flag: '--pending-merge',
        });
      }
      return { branch, into: into ?? git(checkout, ['symbolic-ref', '--quiet', '--short', 'HEAD']).trim() };
    });
    const releaseOrder =
      options.releaseOrder === undefined
        ? undefined
        : options.releaseOrder.split(',').map((task) => task.trim());
    const content: HandoffContent = {
      done: [...(fromFile.done ?? []), ...(options.done ?? []).map(item)],
      verified: [...(fromFile.verified ?? []), ...(options.verified ?? []).map(item)],
      notVerified: [...(fromFile.notVerified ?? []), ...(options.notVerified ?? []).map(item)],
      next: [...(fromFile.next ?? []), ...(options.next ?? [])],
      openAsks: [...(fromFile.openAsks ?? []), ...asks],
      decisions: [
        ...(fromFile.decisions ?? []),
        ...(options.decision ?? []).map((decision) => ({ decision })),
      ],
      ...(fromFile.lanes === undefined ? {} : { lanes: fromFile.lanes }),
      ...(releaseOrder === undefined && fromFile.releaseOrder === undefined
        ? {}
        : { releaseOrder: releaseOrder ?? fromFile.releaseOrder ?? [] }),
      ...(merges.length === 0 && fromFile.pendingMerges === undefined
        ? {}
        : { pendingMerges: [...(fromFile.pendingMerges ?? []), ...merges] }),
    };
    const authorPool = context.io.env.BULLSWARM_POOL || undefined;
    const capacity =
      authorPool === undefined ? undefined : await readCapacity(runtime, { self: true, env: context.io.env });
    const written = await writeHandoffPacket({
      swarm,
      plan,
      checkout,
      task: options.task,
      step: options.step,
      reason: options.reason as HandoffReason,
      author,
      ...(authorPool === undefined ? {} : { authorPool }),
      content,
      ...(capacity === undefined
        ? {}
        : { capacity: { verdict: capacity.verdict, freePct: capacity.freePct, line: capacity.line } }),
      env: context.io.env,
      ...(options.notify === false ? { notify: false as const } : {}),
    });
    if (options.json)
      printJson(context, { path: written.path, packet: written.packet, noticeId: written.noticeId ?? null });
    else {
      printLines(context, [
        `handoff ${written.path}`,
        `${written.packet.task} step ${written.packet.step} (${written.packet.reason}) at ${written.packet.work.branch} ${written.packet.work.head.slice(0, 12)}, ${written.packet.work.uncommitted.length} uncommitted path(s)`,
        ...leadPacketLines(written.packet),
        written.noticeId === undefined ? 'no lead notified' : `notified ${written.packet.lead?.address}`,
      ]);
    }
  });
}

/**
 * `bullswarm handoff accept <packet> [--as <addr>] [--cwd <dir>]`: checks plan, contract, branch,
 * head and uncommitted paths against the checkout; records nothing on a mismatch (exit 1, each
 * difference listed).
 */
export async function handoffAcceptCommand(
  context: CommandContext,
  packetPath: string,
  options: { as?: string; cwd?: string; json?: boolean },
): Promise<void> {
  const { acceptHandoffPacket } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm) => {
    const address = await selfOf(context, options.as);
    const accepted = await acceptHandoffPacket({
      swarm,
      packetPath: resolve(context.io.cwd, packetPath),
      address,
      ...(options.cwd === undefined ? {} : { checkout: resolve(context.io.cwd, options.cwd) }),
    });
    if (options.json) {
      printJson(context, {
        acceptancePath: accepted.acceptancePath,
        record: accepted.record,
        rerun: accepted.rerun,
        next: accepted.packet.next,
        lanes: accepted.packet.lanes ?? null,
        releaseOrder: accepted.packet.releaseOrder ?? null,
        pendingMerges: accepted.packet.pendingMerges ?? null,
      });
      return;
    }
    printLines(context, [
      `accepted ${accepted.record.packetPath} as ${address}: task ${accepted.packet.task} is yours`,
      `re-run first (not verified): ${accepted.rerun.map((i) => i.what).join('; ') || '-'}`,
      `next: ${accepted.packet.next.join(' → ') || '-'}`,
      ...leadPacketLines(accepted.packet),
    ]);
  });
}

/**
 * `bullswarm handoff launch <packet> [--owner <lead>] [--to <addr>]`: picks an account excluding
 * the spent one (another vendor preferred), leases it, and starts the successor through dispatch
 * with a brief to resume from the packet. Exit 1 when the successor's run fails.
 */
export async function handoffLaunchCommand(
  context: CommandContext,
  packetPath: string,
  options: { owner?: string; to?: string; prompt?: string; json?: boolean },
): Promise<void> {
  const { launchSuccessor } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm, runtime) => {
    const owner = await selfOf(context, options.owner, '--owner');
    const launched = await launchSuccessor(runtime, swarm, {
      packetPath: resolve(context.io.cwd, packetPath),
      owner,
      ...(options.to === undefined ? {} : { successor: options.to }),
      ...(options.prompt === undefined ? {} : { promptExtra: options.prompt }),
      env: context.io.env,
    });
    if (options.json) {
      printJson(context, {
        successor: launched.successor,
        poolId: launched.poolId,
        ok: launched.dispatch.ok,
        kind: launched.dispatch.kind,
        accepted: launched.accepted,
        releasedSpentLease: launched.releasedSpentLease ?? null,
        attempts: launched.dispatch.attempts.map((a) => a.outputFile),
      });
    } else {
      printLines(context, [
        `launched ${launched.successor} on ${launched.poolId} (${launched.pick.reason})`,
        `${launched.dispatch.ok ? 'finished' : `FAILED ${launched.dispatch.kind}: ${launched.dispatch.why ?? ''}`}; accepted: ${launched.accepted ? 'yes' : 'no'}${launched.releasedSpentLease ? `; released ${launched.releasedSpentLease}` : ''}`,
      ]);
    }
    if (!launched.dispatch.ok) throw new CliExit(1);
  });
}

/**
 * `bullswarm handoff show <packet> [--json]`: a packet for people — plan, task, step, reason, where
 * the work is, done / verified / not verified, next steps, open asks, decisions, and a lead
 * packet's lane table, release order and pending merges — and its record (launched, accepted).
 */
export async function handoffShowCommand(
  context: CommandContext,
  packetPath: string,
  options: { json?: boolean },
): Promise<void> {
  const { readHandoffPacket } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm) => {
    const path = resolve(context.io.cwd, packetPath);
    const packet = readHandoffPacket(path);
    const record = await swarm.handoffs.get(path);
    if (options.json) {
      printJson(context, { path, packet, record: record ?? null });
      return;
    }
    const items = (list: readonly { what: string; evidence: readonly string[] }[]) =>
      list.map((i) => `${i.what}${i.evidence.length > 0 ? ` [${i.evidence.join(', ')}]` : ''}`).join('; ') ||
      '-';
    printLines(context, [
      `packet ${path} (${packet.schema})`,
      `plan ${packet.plan.id} (${packet.plan.repo}), task ${packet.task} step ${packet.step}, ${packet.reason}`,
      `written ${packet.writtenAt} by ${packet.author.address}${packet.author.pool ? ` on ${packet.author.pool}` : ''}${packet.lead ? `, lead ${packet.lead.address} epoch ${packet.lead.epoch}` : ''}${packet.capacity ? `, ${packet.capacity.line}` : ''}`,
      `work: ${packet.work.branch} ${packet.work.head.slice(0, 12)} in ${packet.work.checkout}${packet.work.pushed ? ', pushed' : ''}, ${packet.work.uncommitted.length} uncommitted path(s)`,
      `done: ${items(packet.done)}`,
      `verified: ${items(packet.verified)}`,
      `not verified: ${items(packet.notVerified)}`,
      `next: ${packet.next.join(' → ') || '-'}`,
      ...(packet.openAsks.length > 0
        ? [`open asks: ${packet.openAsks.map((a) => `${a.to}: ${a.text}`).join('; ')}`]
        : []),
      ...(packet.decisions.length > 0
        ? [`decisions: ${packet.decisions.map((d) => d.decision).join('; ')}`]
        : []),
      ...leadPacketLines(packet),
      record === undefined
        ? 'not recorded in this home'
        : `launched: ${record.successor ?? '-'}${record.successorPool ? ` on ${record.successorPool}` : ''}; accepted by ${record.acceptedBy ?? '-'}`,
    ]);
  });
}
