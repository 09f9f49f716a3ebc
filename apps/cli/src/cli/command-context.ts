import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { BullswarmRuntime } from '@bullswarm/dispatch/routing';
import type { BullswarmHome, LabelConflict, PoolLabelsFile } from '@bullswarm/store';
import { type Colors, createColors, shouldColor } from '../output/color';
import { CliUsageError } from './cli-errors';
import type { CliIo } from './cli-io';

/** Options every command receives from the program (`--home`, `--debug`, `--no-color`). */
export interface GlobalOptions {
  readonly home?: string;
  readonly debug?: boolean;
  readonly color?: boolean;
}

/** What a command works with: where to write, which home, and how to style. */
export interface CommandContext {
  readonly io: CliIo;
  /** `--home`, resolved against the working directory; undefined → `$BULLSWARM_HOME`, else `~/.bullswarm`. */
  readonly homeDir: string | undefined;
  readonly debug: boolean;
  /** Styles for standard output (on only when it is a terminal). */
  readonly colors: Colors;
  /** Styles for standard error (on only when it is a terminal). */
  readonly errColors: Colors;
}

/** Builds the context of one command from the global options. */
export function createCommandContext(io: CliIo, options: GlobalOptions): CommandContext {
  // `--home ""` is refused rather than read as the current directory; `BULLSWARM_HOME=""` keeps
  // meaning the default home (an empty variable counts as unset, as every BULLSWARM_* setting).
  if (options.home !== undefined && options.home.trim() === '') {
    throw new CliUsageError({
      message:
        '--home "": expected a directory path (leave --home out for $BULLSWARM_HOME, else ~/.bullswarm)',
      flag: '--home',
      expected: 'a directory path',
    });
  }
  return {
    io,
    homeDir: options.home === undefined ? undefined : resolve(io.cwd, options.home),
    debug: options.debug === true,
    colors: createColors(shouldColor(io, options.color !== false)),
    errColors: createColors(
      shouldColor({ env: io.env, stdoutIsTTY: io.stderrIsTTY }, options.color !== false),
    ),
  };
}

/** The user's home directory as the command's environment sees it (`$HOME`, else the OS's). */
export function userHomeOf(io: CliIo): string {
  const home = io.env.HOME;
  return home !== undefined && home !== '' ? home : homedir();
}

/**
 * Opens the state home of one command (`--home`, else `$BULLSWARM_HOME`, else `~/.bullswarm`)
 * without the connectors or meters: for commands that only read or write its files and store.
 */
export async function openCliHome(context: CommandContext): Promise<BullswarmHome> {
  const { openHome } = await import('@bullswarm/store');
  const home = openHome({
    ...(context.homeDir === undefined ? {} : { home: context.homeDir }),
    env: context.io.env,
  });
  addPoolSecrets(context, () => home.readState().pools);
  await warnOpenHome(context, home.home);
  return home;
}

/** Homes this process has already warned about (one warning per home, however often it is opened). */
const warnedHomes = new Set<string>();

/**
 * One `warning:` line when the home is open to other users (group or other permission bits), naming
 * it and the `chmod` that fixes it (`homeModeWarning` of the store). Said once per home per process.
 */
async function warnOpenHome(context: CommandContext, home: string): Promise<void> {
  if (warnedHomes.has(home)) return;
  const { homeModeWarning } = await import('@bullswarm/store');
  const warning = homeModeWarning(home);
  if (warning === undefined) return;
  warnedHomes.add(home);
  context.io.err(`${context.errColors.yellow('warning')}: ${warning}\n`);
}

/** Adds each pool's account environment to what the command's output redacts. */
function addPoolSecrets(
  context: CommandContext,
  pools: () => readonly { readonly env?: Readonly<Record<string, string>> }[],
): void {
  if (context.io.addSecretEnv === undefined) return;
  let list: readonly { readonly env?: Readonly<Record<string, string>> }[];
  try {
    list = pools();
  } catch {
    return; // an unreadable state.json is reported by the command that reads it
  }
  for (const pool of list) if (pool.env !== undefined) context.io.addSecretEnv(pool.env);
}

/**
 * Adds each pool's connector account environment (what its agent starts with, e.g. a config
 * directory or a token variable the manifest sets) to what the command's output redacts.
 */
function addConnectorSecrets(context: CommandContext, runtime: BullswarmRuntime): void {
  if (context.io.addSecretEnv === undefined) return;
  for (const pool of runtime.state.pools) {
    const connector = runtime.connectors.get(pool.connector);
    if (connector === undefined) continue;
    try {
      context.io.addSecretEnv(
        connector.accountEnv({
          account: pool.account ?? 'default', // DEFAULT_ACCOUNT of @bullswarm/connectors
          bullswarmHome: runtime.home.home,
          userHome: runtime.userHome,
        }),
      );
    } catch {
      // a template the connector cannot render: the command that uses the pool says so
    }
  }
}

/**
 * Opens the runtime (home, config files, connectors, store, meters) of one command. Imported
 * lazily: a command that needs none of it never loads SQLite or the connectors.
 *
 * A connector that failed to load (a malformed `connector.json`, a configured package that is not
 * installed) never stops the command — the other connectors load — but it is named on stderr every
 * time, with the file and field, so a broken manifest cannot go unnoticed. A label equal to another
 * pool's id (a hand edit) is ignored, with one warning line naming the file, the field and the fix.
 * Standard output stays clean for `--json`.
 */
export async function openCliRuntime(
  context: CommandContext,
  options: { readonly createStore?: boolean } = {},
): Promise<BullswarmRuntime> {
  const { openRuntime } = await import('@bullswarm/dispatch/routing');
  const runtime = await openRuntime({
    ...(context.homeDir === undefined ? {} : { home: context.homeDir }),
    env: context.io.env,
    userHome: userHomeOf(context.io),
    projectDir: context.io.cwd,
    ...(options.createStore ? { createStore: true } : {}),
  });
  addPoolSecrets(context, () => runtime.state.pools);
  addConnectorSecrets(context, runtime);
  await warnOpenHome(context, runtime.home.home);
  if (options.createStore && runtime.store?.readOnly) {
    // A command that records its work cannot run on a read-only home: said before anything starts.
    runtime.close();
    const { StoreFaultError } = await import('@bullswarm/store');
    throw new StoreFaultError({ dbPath: runtime.home.dbPath, code: 'SQLITE_READONLY', operation: 'open' });
  }
  // A home or configured connector replacing another (connectors README: "with a warning").
  for (const warning of runtime.connectorLoad.warnings) {
    context.io.err(`${context.errColors.yellow('warning')}: ${warning}\n`);
  }
  await warnLabelConflicts(context, runtime.home, runtime.labelConflicts);
  for (const error of runtime.connectorLoad.errors) {
    context.io.err(
      `${context.errColors.yellow('warning')}: connector not loaded: ${error.message} (the other connectors are loaded)\n`,
    );
  }
  return runtime;
}

/**
 * The labels in effect of a home opened without a runtime (`openCliHome`): a label equal to another
 * configured pool's id is dropped, with one warning line on stderr each (as {@link openCliRuntime}).
 */
export async function usableCliLabels(context: CommandContext, home: BullswarmHome): Promise<PoolLabelsFile> {
  const { findLabelConflicts, usableLabels } = await import('@bullswarm/store');
  const labels = home.readLabels();
  const state = home.readState();
  await warnLabelConflicts(context, home, findLabelConflicts(labels, state));
  return usableLabels(labels, state);
}

/** One stderr warning line per ignored label (a label equal to another pool's id). */
async function warnLabelConflicts(
  context: CommandContext,
  home: BullswarmHome,
  conflicts: readonly LabelConflict[],
): Promise<void> {
  if (conflicts.length === 0) return;
  const { labelConflictWarning } = await import('./label-conflict-warning');
  for (const conflict of conflicts) {
    context.io.err(`${context.errColors.yellow('warning')}: ${labelConflictWarning(home, conflict)}\n`);
  }
}

/** Runs `body` with an open runtime and always closes it. */
export async function withRuntime<T>(
  context: CommandContext,
  options: { readonly createStore?: boolean },
  body: (runtime: BullswarmRuntime) => Promise<T>,
): Promise<T> {
  const runtime = await openCliRuntime(context, options);
  try {
    return await body(runtime);
  } finally {
    await runtime.close();
  }
}

/** Prints one JSON document (two-space indented) on stdout. */
export function printJson(context: CommandContext, value: unknown): void {
  context.io.out(`${JSON.stringify(value, null, 2)}\n`);
}
