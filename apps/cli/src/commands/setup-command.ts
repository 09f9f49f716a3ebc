import { createInterface } from 'node:readline/promises';
import type { StatePool } from '@bullswarm/store';
import { CliExit } from '../cli/cli-errors';
import { type CommandContext, printJson, withRuntime } from '../cli/command-context';
import { EXIT } from '../cli/exit-codes';
import { alignColumns } from '../output/align-columns';
import { type AppliedModel, applyDefaultModels } from './strategy-command';

/** Options of `bullswarm setup`. */
export interface SetupOptions {
  readonly yes?: boolean;
  readonly strategy?: boolean;
  readonly json?: boolean;
}

/** One pool setup found. */
export interface SetupCandidate {
  readonly poolId: string;
  readonly connector: string;
  readonly account: string;
  /** The CLI binary found on PATH. */
  readonly binaryPath: string;
  /** What revealed the account (the binary for `default`, else e.g. `~/.claude-acme`). */
  readonly evidencePath: string;
  /** The pool is already configured (setup skips it). */
  readonly exists: boolean;
  /**
   * The pool whose label equals this pool's id, or null. Such a pool is not created (a label is
   * never another pool's id, docs/routing.md); relabel that pool first and run setup again.
   */
  readonly labelOf: string | null;
}

/**
 * `bullswarm setup [--yes] [--strategy] [--json]`: runs each connector's `detect()` (the binary on
 * PATH and the accounts on this machine), shows the pools it would create (existing ones are
 * skipped), asks `Create these N pools? [y/N]` on a terminal unless `--yes`, and creates them.
 * Off a terminal without `--yes` it prints the plan and exits 2 asking for `--yes`. `--strategy`
 * also sets each created pool's model per tier to the connector default (as `strategy apply`).
 * Nothing is pinned.
 *
 * Choices: a connector whose CLI is not on PATH gets no pools, even when account directories of
 * it exist (its pools could not run); the bundled `bullswarm-sim` (the `sim` and `echo` demo
 * connectors) is never proposed — add those with `pools add`. A pool whose id is already another
 * pool's label (pool-labels.json) is skipped like an existing one, with a warning line naming the
 * label and the command that changes it, and `skipped` in `--json`; the others are created and the
 * exit code stays 0 (as for existing pools).
 */
export async function setupCommand(context: CommandContext, options: SetupOptions): Promise<void> {
  const { BUNDLED_COMMANDS } = await import('@bullswarm/connectors');
  const bundled = new Set(Object.values(BUNDLED_COMMANDS));
  await withRuntime(context, {}, async (runtime) => {
    const existing = new Set(runtime.state.pools.map((pool) => pool.id));
    // Every label of the file, also of pools no longer configured (`pools add` refuses the same ids).
    const { labelOwner } = await import('@bullswarm/store');
    const fileLabels = runtime.home.readLabels();
    const labelOf = (poolId: string): string | null => labelOwner(fileLabels, poolId, poolId) ?? null;
    const found: SetupCandidate[] = [];
    const connectors = [...runtime.connectors.values()].sort((a, b) =>
      a.connectorId < b.connectorId ? -1 : 1,
    );
    const lookedFor: string[] = [];
    for (const connector of connectors) {
      if (!connector.detect) continue;
      lookedFor.push(
        (connector as { manifest?: { detect?: { binary?: string } } }).manifest?.detect?.binary ??
          connector.connectorId,
      );
      const detection = await connector.detect({
        path: context.io.env.PATH ?? '',
        userHome: runtime.userHome,
        bullswarmHome: runtime.home.home,
      });
      const binaryPath = detection.binaryPath;
      if (binaryPath === undefined || bundled.has(binaryPath)) continue;
      for (const account of detection.accounts) {
        const poolId =
          account.account === 'default'
            ? connector.connectorId
            : `${connector.connectorId}:${account.account}`;
        found.push({
          poolId,
          connector: connector.connectorId,
          account: account.account,
          binaryPath,
          evidencePath: account.evidencePath,
          exists: existing.has(poolId),
          labelOf: existing.has(poolId) ? null : labelOf(poolId),
        });
      }
    }
    const toCreate = found.filter((candidate) => !candidate.exists && candidate.labelOf === null);
    const skipped = found.flatMap((c) =>
      c.labelOf === null ? [] : [{ poolId: c.poolId, labelOf: c.labelOf }],
    );
    const plan = { found, create: toCreate.map((c) => c.poolId), skipped };

    if (!options.json) printPlan(context, found, toCreate.length, lookedFor);
    for (const skip of skipped) {
      context.io.err(
        `${context.errColors.yellow('warning')}: not creating pool ${skip.poolId}: "${skip.poolId}" is the label of pool ${skip.labelOf}, and a label is never another pool's id; change it with \`bullswarm pools label ${skip.labelOf} <new-label>\` (or \`--clear\`), then run setup again\n`,
      );
    }
    if (toCreate.length === 0) {
      if (options.json) printJson(context, { ...plan, created: [], applied: [] });
      return;
    }
    if (!options.yes) {
      if (!context.io.stdinIsTTY || options.json) {
        if (options.json) printJson(context, { ...plan, created: [], applied: [], needsYes: true });
        context.io.err(
          `not creating ${toCreate.length} pool(s) without confirmation: run \`bullswarm setup --yes${options.strategy ? ' --strategy' : ''}\`\n`,
        );
        throw new CliExit(EXIT.usage);
      }
      const confirmed = await ask(context, `Create these ${toCreate.length} pools? [y/N] `);
      if (!confirmed) {
        context.io.out('nothing created\n');
        return;
      }
    }

    const addedAt = new Date(runtime.clock()).toISOString();
    runtime.home.updateState((draft) => {
      for (const candidate of toCreate) {
        if (draft.pools.some((pool) => pool.id === candidate.poolId)) continue;
        const pool: StatePool = {
          id: candidate.poolId,
          connector: candidate.connector,
          ...(candidate.account === 'default' ? {} : { account: candidate.account }),
          enabled: true,
          models: {},
          addedAt,
        };
        draft.pools.push(pool);
      }
    });
    let applied: AppliedModel[] = [];
    if (options.strategy) {
      const { defaultModelForTier } = await import('@bullswarm/connectors');
      applied = applyDefaultModels(runtime, defaultModelForTier, plan.create);
    }
    if (options.json) {
      printJson(context, { ...plan, created: plan.create, applied });
      return;
    }
    context.io.out(`created ${plan.create.length} pool(s): ${plan.create.join(', ')}\n`);
    if (options.strategy) {
      context.io.out(`set ${applied.length} tier model(s) to the connector defaults; pinned nothing\n`);
    }
    context.io.out(
      'next: `bullswarm pools` to see them, `bullswarm run --lane analyze --dry-run "…"` to see a pick\n',
    );
  });
}

function printPlan(
  context: CommandContext,
  found: readonly SetupCandidate[],
  creating: number,
  lookedFor: readonly string[],
): void {
  if (found.length === 0) {
    context.io.out(
      `no agent CLIs found on PATH (looked for ${[...new Set(lookedFor)].join(', ')})\n` +
        'try the simulated pools with `bullswarm demo`, or add a pool by hand with `bullswarm pools add <connector>[:<account>] --command <path>`\n',
    );
    return;
  }
  const rows = found.map((c) => [
    c.exists ? '  (exists)' : c.labelOf !== null ? `  (label of ${c.labelOf})` : '  + create',
    c.poolId,
    c.evidencePath,
  ]);
  context.io.out(`found ${found.length} pool(s), ${creating} to create:\n`);
  for (const line of alignColumns(rows)) context.io.out(`${line}\n`);
}

async function ask(context: CommandContext, question: string): Promise<boolean> {
  const rl = createInterface({ input: context.io.stdin, output: process.stderr, terminal: false });
  try {
    context.io.err(question);
    const answer = await rl.question('');
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
