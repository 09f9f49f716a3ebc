/**
 * The CLI ships as two CommonJS bundles of the same program (see tsup.config.ts):
 *
 * - `bullswarm.cjs`, the core: the read-only and bookkeeping commands (`pools`, `assignments`,
 *   `strategy`, `meters`, `connectors`, `completion`, help and `--version`). It holds no code that spawns an agent: no
 *   workflow or swarm package, no `dispatchTask`, attempt runner or execa. Their command modules
 *   are replaced in it by a module that throws, so reaching one is a loud internal error.
 * - `bullswarm-full.cjs`: everything (run, demo, setup, dashboard, workflow and swarm commands).
 *
 * `pools --json` runs in statuslines and scripts, and a start is mostly loading and initialising
 * JavaScript, so the bin picks the bundle from the command word before loading either.
 */

/** The core bundle's file name (beside the bin). */
export const CORE_BUNDLE = 'bullswarm.cjs';

/** The full bundle's file name (beside the bin). */
export const FULL_BUNDLE = 'bullswarm-full.cjs';

/**
 * Top-level commands the core bundle runs, with all their subcommands. Anything else (a command
 * not listed, a misspelt one) loads the full bundle, which runs every command: a command missing
 * here is slower, never wrong.
 */
export const CORE_COMMANDS: ReadonlySet<string> = new Set([
  'pools',
  'assignments',
  'strategy',
  'meters',
  'connectors',
  'help',
  // Shell completion: the script, and what it asks at each Tab (fast: it runs on every keypress).
  'completion',
  '__complete',
]);

/** Global options that take a value: the argument after one is its value, not the command. */
export const GLOBAL_OPTIONS_WITH_VALUE: readonly string[] = ['--home'];

/**
 * The command word of a command line: its first argument that is neither an option nor the
 * value of a global option (`bullswarm --home /h pools --json` → `pools`). Undefined for
 * `bullswarm`, `bullswarm --help`, `bullswarm --version`.
 */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (!arg.startsWith('-')) return arg;
    if (GLOBAL_OPTIONS_WITH_VALUE.includes(arg)) index += 1;
  }
  return undefined;
}

/** The bundle that runs this command line: {@link CORE_BUNDLE} or {@link FULL_BUNDLE}. */
export function bundleFor(argv: readonly string[]): string {
  const word = commandWord(argv);
  return word === undefined || CORE_COMMANDS.has(word) ? CORE_BUNDLE : FULL_BUNDLE;
}
