import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@bullswarm/connectors/internal';
import type { GateRun } from '../gates/run-gate';
import type { LeadEvent } from '../leads/lead-record';
import type { RemoteCheck } from '../leads/remote-check';
import { appendJournal } from '../plans/journal';
import type { PlanLocation } from '../plans/plan-location';

/** One gate run of the drill. */
export interface DrillGate extends GateRun {
  readonly task: string;
  /** `before-work` (must fail: no vacuous pass), `lane`, `rerun` (what a packet listed as not verified), `main`. */
  readonly phase: 'before-work' | 'lane' | 'rerun' | 'main';
}

/** What the drill proved, with where the evidence is. */
export interface DrillReport {
  readonly ok: true;
  readonly dir: string;
  readonly home: string;
  readonly repo: string;
  readonly plan: string;
  /** `plans/drill/analysis_results/drill-evidence.json` */
  readonly evidencePath: string;
  readonly lanes: readonly {
    readonly task: string;
    readonly address: string;
    readonly poolId: string;
    readonly branch: string;
  }[];
  readonly packets: readonly {
    readonly path: string;
    readonly task: string;
    readonly reason: string;
    readonly author: string;
    readonly acceptedBy: string | undefined;
  }[];
  readonly successor: { readonly address: string; readonly poolId: string; readonly spentPoolId: string };
  readonly epochs: readonly LeadEvent[];
  readonly gates: readonly DrillGate[];
  readonly ask: {
    readonly from: string;
    readonly to: string;
    readonly askId: number;
    readonly replyId: number;
    readonly answer: string;
  };
  readonly capacity: readonly { readonly by: string; readonly line: string; readonly verdict: string }[];
  readonly fencing: { readonly refused: string; readonly epoch: number; readonly currentEpoch: number };
  /** The scratch repository's remote (a bare repository) and what each fenced action read from it first. */
  readonly remote: { readonly url: string; readonly checks: readonly RemoteCheck[] };
  readonly hysteresis: { readonly address: string; readonly task: string; readonly refused: string };
  readonly tag: string;
  readonly head: string;
  readonly humanKeystrokes: 0;
  readonly steps: readonly string[];
}

/** How the drill proves what it proves: written at the top of its evidence. */
export const MEANS_OF_PROOF =
  'The lead, the deputy, the lanes and the successor are drill actors in this process that follow the protocol through the same library calls the `bullswarm` commands use (capacity, lead claim/handover, lease, notify/inbox, handoff write/accept/launch, lead fence). The lane work and the successor are real bullswarm-sim processes started through dispatchTask on the leased accounts; gates are real commands; merges and the tag are real git.';

/**
 * Writes the evidence to the plan's `analysis_results/`: `drill-evidence.json` (the whole report,
 * the means of proof, and that standard input was never read) and `drill-report.md`, then
 * journals `drill.finished` as an observation by the lead that finished the plan.
 */
export function writeDrillEvidence(
  plan: PlanLocation,
  report: DrillReport,
  finish: { readonly by: string; readonly epoch: number; readonly at: number },
): void {
  mkdirSync(plan.analysisDir, { recursive: true });
  writeFileAtomic(
    report.evidencePath,
    `${JSON.stringify({ schema: 'bullswarm-drill-evidence/v1', means: MEANS_OF_PROOF, stdin: 'never read', ...report }, null, 2)}\n`,
    { mode: 0o644 },
  );
  writeFileAtomic(join(plan.analysisDir, 'drill-report.md'), drillMarkdown(report), { mode: 0o644 });
  appendJournal(
    plan.journalFile,
    {
      type: 'observation',
      event: 'drill.finished',
      plan: plan.id,
      by: finish.by,
      epoch: finish.epoch,
      evidence: report.evidencePath,
    },
    finish.at,
  );
}

function drillMarkdown(report: DrillReport): string {
  const lines = [
    `# Drill of ${report.plan}`,
    '',
    MEANS_OF_PROOF,
    '',
    'No human keystroke: the drill never reads standard input.',
    '',
    '## Lanes',
    ...report.lanes.map((l) => `- ${l.task}: ${l.address} on ${l.poolId} (${l.branch})`),
    '',
    '## Packets',
    ...report.packets.map(
      (p) => `- ${p.path} — ${p.task}, ${p.reason}, by ${p.author}, accepted by ${p.acceptedBy ?? '-'}`,
    ),
    '',
    '## Epochs',
    ...report.epochs.map(
      (e) =>
        `- ${new Date(e.at).toISOString()} ${e.kind} epoch ${e.epoch}${e.lead ? ` lead ${e.lead}` : ''}${e.reason ? ` (${e.reason})` : ''}`,
    ),
    '',
    '## Lane-to-lane ask',
    `- ${report.ask.from} asked ${report.ask.to} (notice #${report.ask.askId}); answer "${report.ask.answer}" (notice #${report.ask.replyId})`,
    '',
    '## Gates',
    ...report.gates.map(
      (g) => `- ${g.task} (${g.phase}) in ${g.cwd}: ${g.passed ? 'passed' : `failed, exit ${g.exitCode}`}`,
    ),
    '',
    '## Capacity lines',
    ...report.capacity.map((c) => `- ${c.by}: ${c.line}`),
    '',
    `Fencing: \`${report.fencing.refused}\` at epoch ${report.fencing.epoch} refused (current epoch ${report.fencing.currentEpoch}).`,
    `Remote ${report.remote.url} read before each fenced action: ${report.remote.checks
      .map((c) => (c.checked ? c.refs.map((r) => `${r.ref} ${r.why}`).join(', ') : `not read (${c.why})`))
      .join('; ')}.`,
    `Hysteresis: ${report.hysteresis.address} could not take ${report.hysteresis.task} back.`,
    `Tag ${report.tag} at ${report.head}.`,
    '',
  ];
  return `${lines.join('\n')}\n`;
}
