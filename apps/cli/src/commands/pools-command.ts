import { resolve } from 'node:path';
import type { ConnectorV1 } from '@bullswarm/connectors';
import type { BullswarmRuntime } from '@bullswarm/dispatch/routing';
import {
  ACCOUNT_PATTERN,
  type BullswarmHome,
  ENV_NAME_PATTERN,
  type StateFile,
  type StatePool,
} from '@bullswarm/store';
import { CliUsageError } from '../cli/cli-errors';
import {
  type CommandContext,
  openCliHome,
  printJson,
  usableCliLabels,
  withRuntime,
} from '../cli/command-context';
import { parseKeyValue } from '../parse/parse-options';
import { formatMeterErrorDetail, formatPoolLines } from '../pools/format-pool-line';

/**
 * `bullswarm pools [--json]`: one line per pool (docs/routing.md, "How the decision shows its work").
 * With `--debug`, a pool whose last meter poll failed gets one indented line under it with the
 * reader's full message (`  meter error: <file>: windows[0].resetsAt: …`); the pool line itself
 * keeps the short status. `--json` carries it as `meterErrorDetail` in every case.
 */
export async function poolsListCommand(context: CommandContext, options: { json?: boolean }): Promise<void> {
  const { buildPoolSnapshots, buildPoolViews } = await import('@bullswarm/dispatch/routing');
  await withRuntime(context, {}, async (runtime) => {
    const snapshots = await buildPoolSnapshots(runtime);
    const views = buildPoolViews(snapshots, { inflightPenaltyPct: runtime.state.config.inflightPenaltyPct });
    if (options.json) {
      printJson(context, { now: new Date(snapshots.now).toISOString(), pools: views });
      return;
    }
    if (views.length === 0) {
      context.io.out(
        'no pools yet: run `bullswarm setup`, or `bullswarm pools add <connector>[:<account>]`\n',
      );
      return;
    }
    const lines = formatPoolLines(views, snapshots.now, context.colors);
    views.forEach((view, index) => {
      context.io.out(`${lines[index]}\n`);
      const detail = context.debug ? formatMeterErrorDetail(view) : null;
      if (detail !== null) context.io.out(`${detail}\n`);
    });
  });
}

/** Options of `bullswarm pools add`. */
export interface PoolsAddOptions {
  readonly label?: string;
  readonly env?: readonly string[];
  readonly command?: string;
  readonly disabled?: boolean;
  readonly model?: readonly string[];
  readonly json?: boolean;
}

/** The connectors a home can use, for error messages: `claude-code, codex, …`. */
function connectorList(runtime: BullswarmRuntime): string {
  return [...runtime.connectors.keys()].sort().join(', ');
}

/** Resolves `<connector>[:<account>]` to a connector, an account and the pool id. */
function parsePoolSpec(
  runtime: BullswarmRuntime,
  spec: string,
): { connector: ConnectorV1; account: string | undefined; id: string } {
  const colon = spec.indexOf(':');
  const connectorId = colon === -1 ? spec : spec.slice(0, colon);
  const account = colon === -1 ? undefined : spec.slice(colon + 1);
  const connector = runtime.connectors.get(connectorId);
  if (!connector) {
    throw new CliUsageError({
      message: `unknown connector "${connectorId}" in <connector>[:<account>]: known connectors are ${connectorList(runtime)}`,
      flag: '<connector>',
      expected: connectorList(runtime),
    });
  }
  if (account !== undefined && (!ACCOUNT_PATTERN.test(account) || account === 'default')) {
    throw new CliUsageError({
      message:
        account === 'default'
          ? `account "default" is the connector's own login: add it as "${connectorId}" without an account`
          : `account "${account}" is not valid: use letters, digits, ".", "_" or "-" (e.g. ${connectorId}:work)`,
      flag: '<connector>[:<account>]',
    });
  }
  return { connector, account, id: account === undefined ? connectorId : `${connectorId}:${account}` };
}

/**
 * Checks `<tier>=<model>` against the connector's allow-list and returns the pool's `models`
 * entries. `<tier>=none` leaves the tier without a model (the pool then never takes that tier).
 */
export function parseModelAssignments(
  connector: ConnectorV1,
  values: readonly string[],
  flag = '--model',
): Record<string, string | null> {
  const models: Record<string, string | null> = {};
  for (const value of values) {
    const [tier, model] = parseKeyValue(value, flag, '<tier>=<model>, e.g. high=opus (or <tier>=none)');
    models[tier] = model === 'none' ? null : checkAllowedModel(connector, tier, model, flag);
  }
  return models;
}

/** The model if the connector allows it for the tier; else a usage error listing what it allows. */
export function checkAllowedModel(connector: ConnectorV1, tier: string, model: string, flag: string): string {
  const tiers = Object.keys(connector.modelProfiles);
  const profiles = connector.modelProfiles[tier];
  if (!profiles) {
    throw new CliUsageError({
      message: `${flag}: connector ${connector.connectorId} has no tier "${tier}": its tiers are ${tiers.join(', ')}`,
      flag,
      expected: tiers.join(', '),
    });
  }
  if (!profiles.some((profile) => profile.model === model)) {
    const allowed = profiles.map((profile) => profile.model).join(', ');
    throw new CliUsageError({
      message: `${flag}: model "${model}" is not allowed for tier ${tier} on ${connector.connectorId}: allowed models are ${allowed}`,
      flag,
      expected: allowed,
    });
  }
  return model;
}

/**
 * `bullswarm pools add <connector>[:<account>]`. The pool starts with the connector's default model
 * per tier unless `--model` names one; `--label` is checked before anything is written.
 */
export async function poolsAddCommand(
  context: CommandContext,
  spec: string,
  options: PoolsAddOptions,
): Promise<void> {
  await withRuntime(context, {}, async (runtime) => {
    const { connector, account, id } = parsePoolSpec(runtime, spec);
    const models = parseModelAssignments(connector, options.model ?? []);
    const env: Record<string, string> = {};
    for (const value of options.env ?? []) {
      const [name, envValue] = parseKeyValue(
        value,
        '--env',
        'NAME=value, e.g. CLAUDE_CONFIG_DIR=/home/me/.claude-work',
      );
      if (!ENV_NAME_PATTERN.test(name)) {
        throw new CliUsageError({
          message: `--env "${value}": "${name}" is not an environment variable name (letters, digits, _)`,
          flag: '--env',
        });
      }
      env[name] = envValue;
    }
    if (options.command !== undefined && options.command.trim() === '') {
      throw new CliUsageError({
        message: '--command cannot be empty: give a path or a name on PATH',
        flag: '--command',
      });
    }
    const state = runtime.home.readState();
    if (state.pools.some((pool) => pool.id === id)) {
      throw new CliUsageError({
        message: `pool ${id} already exists (remove it first with \`bullswarm pools remove ${id}\`)`,
        flag: '<connector>[:<account>]',
      });
    }
    // docs/routing.md: a label is never another pool's id — nor may a new pool take an id that is a label.
    const { labelOwner: ownerOf } = await import('@bullswarm/store');
    const labels = runtime.home.readLabels();
    const labelOwner = ownerOf(labels, id, id);
    if (labelOwner !== undefined) {
      throw new CliUsageError({
        message: `<connector>[:<account>] "${id}" is the label of pool ${labelOwner}, and a label is never another pool's id: add the pool under another account name, or first relabel that pool (bullswarm pools label ${labelOwner} <new-label>, or --clear)`,
        flag: '<connector>[:<account>]',
      });
    }
    if (options.label !== undefined) {
      const { InvalidLabelError, validateLabel } = await import('@bullswarm/store');
      const pools = [...state.pools, { id } as StatePool];
      try {
        validateLabel(id, options.label, { ...state, pools } as StateFile, labels);
      } catch (error) {
        if (!InvalidLabelError.isInstance(error)) throw error;
        throw new CliUsageError({ message: `--label ${error.message}`, flag: '--label', cause: error });
      }
    }
    const pool: StatePool = {
      id,
      connector: connector.connectorId,
      ...(account === undefined ? {} : { account }),
      enabled: options.disabled !== true,
      models,
      ...(Object.keys(env).length > 0 ? { env } : {}),
      // A path is kept absolute (a bare name is looked up on PATH when the agent runs).
      ...(options.command === undefined
        ? {}
        : {
            command: options.command.includes('/')
              ? resolve(context.io.cwd, options.command)
              : options.command,
          }),
      addedAt: new Date(runtime.clock()).toISOString(),
    };
    runtime.home.updateState((draft) => {
      if (draft.pools.some((p) => p.id === id)) {
        throw new CliUsageError({ message: `pool ${id} already exists`, flag: '<connector>[:<account>]' });
      }
      draft.pools.push(pool);
    });
    if (options.label !== undefined && options.label !== id) runtime.home.setLabel(id, options.label);
    const warnings = await missingCliWarnings(runtime, connector, pool);
    if (options.json) {
      printJson(context, { added: pool, poolLabel: options.label ?? id, warnings });
      return;
    }
    context.io.out(
      `added pool ${id}${options.label !== undefined && options.label !== id ? ` (label ${options.label})` : ''}\n`,
    );
    for (const warning of warnings) context.io.err(`warning: ${warning}\n`);
  });
}

/**
 * What `pools add` warns about at once: the pool's CLI is not there, so the pool is unavailable
 * (never picked, `UNAVAILABLE (<why>)` in `pools`) until it is installed or `--command` names it.
 */
async function missingCliWarnings(
  runtime: BullswarmRuntime,
  connector: ConnectorV1,
  pool: StatePool,
): Promise<string[]> {
  const { findPoolCli } = await import('@bullswarm/dispatch/routing');
  const accountEnv = {
    ...connector.accountEnv({
      account: pool.account ?? 'default',
      bullswarmHome: runtime.home.home,
      userHome: runtime.userHome,
    }),
    ...(pool.env ?? {}),
  };
  const cli = findPoolCli(connector, pool, accountEnv, runtime.env);
  if (cli?.problem === undefined) return [];
  const fix =
    pool.command === undefined
      ? `install ${connector.displayName}, or add the pool with --command <path>`
      : `fix the path: bullswarm pools remove ${pool.id}, then add it again with the right --command`;
  return [
    `pool ${pool.id} cannot run: ${cli.problem}; it shows UNAVAILABLE in bullswarm pools until then (${fix})`,
  ];
}

/**
 * `bullswarm pools remove <pool>`: removes the pool, any tier assignment naming it (state.json
 * would otherwise be invalid), and its label. Its history in the store is kept.
 */
export async function poolsRemoveCommand(
  context: CommandContext,
  ref: string,
  options: { json?: boolean } = {},
): Promise<void> {
  await withRuntime(context, {}, async (runtime) => {
    const id = runtime.home.resolvePoolRef(ref);
    const poolLabel = runtime.label(id);
    const droppedTiers: string[] = [];
    let removed: StatePool | undefined;
    runtime.home.updateState((draft) => {
      removed = draft.pools.find((pool) => pool.id === id);
      draft.pools = draft.pools.filter((pool) => pool.id !== id);
      for (const [tier, assignment] of Object.entries(draft.assignments)) {
        if (assignment.pool === id) {
          delete draft.assignments[tier];
          droppedTiers.push(tier);
        }
      }
    });
    runtime.home.updateLabels((labels) => {
      delete labels.labels[id];
    });
    if (options.json) {
      printJson(context, { removed: removed ?? null, poolLabel, droppedAssignments: droppedTiers });
      return;
    }
    context.io.out(`removed pool ${id}\n`);
    if (droppedTiers.length > 0)
      context.io.out(`dropped its tier assignment(s): ${droppedTiers.join(', ')}\n`);
  });
}

/** `bullswarm pools enable|disable <pool>`. */
export async function poolsEnableCommand(
  context: CommandContext,
  ref: string,
  enabled: boolean,
  options: { json?: boolean } = {},
): Promise<void> {
  await withRuntime(context, {}, async (runtime) => {
    const id = runtime.home.resolvePoolRef(ref);
    const state = runtime.home.updateState((draft) => {
      const pool = draft.pools.find((p) => p.id === id);
      if (pool) pool.enabled = enabled;
    });
    if (options.json) {
      printJson(context, {
        pool: state.pools.find((p) => p.id === id) ?? null,
        poolLabel: runtime.label(id),
      });
      return;
    }
    context.io.out(`${enabled ? 'enabled' : 'disabled'} pool ${runtime.label(id)}\n`);
  });
}

/** Options of `bullswarm pools label`. */
export interface PoolsLabelOptions {
  readonly list?: boolean;
  readonly clear?: boolean;
  readonly json?: boolean;
}

/**
 * `bullswarm pools label <pool> <label>`, `pools label --list [--json]`, `pools label <pool> --clear`
 * (docs/routing.md, "Pool display labels": no spaces, never another pool's id; setting a pool's label
 * to its own id clears it).
 */
export async function poolsLabelCommand(
  context: CommandContext,
  ref: string | undefined,
  label: string | undefined,
  options: PoolsLabelOptions,
): Promise<void> {
  const home = await openCliHome(context);
  await labelCommand(context, home, ref, label, options);
  // A label still equal to another pool's id (a hand edit) is named once, after any repair just made.
  await usableCliLabels(context, home);
}

async function labelCommand(
  context: CommandContext,
  home: BullswarmHome,
  ref: string | undefined,
  label: string | undefined,
  options: PoolsLabelOptions,
): Promise<void> {
  if (options.list) {
    if (ref !== undefined || options.clear) {
      throw new CliUsageError({ message: '--list takes no pool and no --clear', flag: '--list' });
    }
    const rows = home.listLabels();
    if (options.json) {
      printJson(context, { labels: rows });
      return;
    }
    if (rows.length === 0) {
      context.io.out('no labels (set one with `bullswarm pools label <pool> <label>`)\n');
      return;
    }
    const width = Math.max(...rows.map((row) => row.poolId.length));
    for (const row of rows) {
      context.io.out(
        `${row.poolId.padEnd(width)} ${row.label}${row.configured ? '' : ' (pool not configured)'}` +
          `${row.equalsPoolId === null ? '' : ` (ignored: equals the id of pool ${row.equalsPoolId})`}\n`,
      );
    }
    return;
  }
  if (ref === undefined) {
    throw new CliUsageError({
      message:
        'missing <pool>: `pools label <pool> <label>`, `pools label <pool> --clear` or `pools label --list`',
      flag: '<pool>',
    });
  }
  if (options.clear) {
    if (label !== undefined)
      throw new CliUsageError({ message: '--clear takes no <label>', flag: '--clear' });
    const removed = home.clearLabel(ref);
    if (options.json) printJson(context, { pool: ref, cleared: removed });
    else context.io.out(removed ? `cleared the label of ${ref}\n` : `${ref} had no label\n`);
    return;
  }
  if (label === undefined) {
    throw new CliUsageError({
      message: 'missing <label> (or pass --clear to remove the label)',
      flag: '<label>',
    });
  }
  const result = home.setLabel(ref, label);
  if (options.json) {
    printJson(context, { poolId: result.poolId, poolLabel: result.label });
    return;
  }
  context.io.out(
    result.label === result.poolId
      ? `${result.poolId} shows as its id (label cleared)\n`
      : `${result.poolId} now shows as ${result.label}\n`,
  );
}
