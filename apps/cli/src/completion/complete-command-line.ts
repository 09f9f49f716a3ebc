import type { Argument, Command, Option } from 'commander';

/**
 * What the shell should do besides offering the candidates: nothing (`none`), or also complete
 * file or directory names (an argument or option that takes a path).
 */
export type CompletionFallback = 'none' | 'files' | 'dirs';

/** One completion: the word, and a description for shells that show one (zsh, fish). */
export interface CompletionCandidate {
  readonly value: string;
  readonly description: string;
}

/** The answer to one completion request. */
export interface Completion {
  readonly candidates: readonly CompletionCandidate[];
  readonly fallback: CompletionFallback;
}

/** The values only the home knows, looked up when a completion needs them. */
export interface CompletionValues {
  /** The pools of the home: ids and labels (a label completes wherever a pool id does). */
  readonly pools: (home: string | undefined) => readonly { id: string; label?: string | undefined }[];
  /** The workflow run ids of the home, newest first. */
  readonly workflowRuns: (home: string | undefined) => readonly string[];
}

const LANES = ['analyze', 'build', 'chore'];
const TIERS = ['low', 'medium', 'high'];

/** Option and argument names whose values are pools, run ids, paths… (the rest complete nothing). */
const POOL_NAMES = new Set(['pool', 'worker-pool']);
const RUN_NAMES = new Set(['runId', 'run-id', 'run']);
const DIR_NAMES = new Set(['home', 'cwd', 'add-dir', 'config-dir', 'dir', 'repo']);
const FILE_NAMES = new Set(['program', 'file', 'prompt-file', 'schema', 'candidate', 'content', 'path']);

function visibleCommands(command: Command): Command[] {
  return command.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
}

function findSubcommand(command: Command, word: string): Command | undefined {
  return command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
}

/** The options of `command` and of every command above it (global options apply anywhere). */
function optionsInScope(chain: readonly Command[]): Option[] {
  const options: Option[] = [];
  for (const command of [...chain].reverse()) {
    options.push(...command.options.filter((option) => !option.hidden));
    const help = helpOption(command);
    if (help !== undefined && !options.includes(help)) options.push(help);
  }
  return options;
}

function helpOption(command: Command): Option | undefined {
  return (command as unknown as { _getHelpOption?: () => Option | null })._getHelpOption?.() ?? undefined;
}

function findOption(options: readonly Option[], flag: string): Option | undefined {
  return options.find((option) => option.long === flag || option.short === flag);
}

const takesValue = (option: Option) => option.required || option.optional;

/** The name an option's value goes by: `--worker-pool <pool>` → `worker-pool`. */
const optionName = (option: Option) => (option.long ?? option.short ?? '').replace(/^--?/, '');

function matching(values: readonly CompletionCandidate[], prefix: string): CompletionCandidate[] {
  const seen = new Set<string>();
  return values.filter((candidate) => {
    if (!candidate.value.startsWith(prefix) || seen.has(candidate.value)) return false;
    seen.add(candidate.value);
    return true;
  });
}

/** Completes a value named `name` (an option's or an argument's), with commander's choices first. */
function valuesFor(
  name: string,
  choices: readonly string[] | undefined,
  home: string | undefined,
  values: CompletionValues,
): Completion {
  const words = (list: readonly string[], description = '') => list.map((value) => ({ value, description }));
  if (choices !== undefined && choices.length > 0) return { candidates: words(choices), fallback: 'none' };
  if (POOL_NAMES.has(name)) {
    const candidates: CompletionCandidate[] = [];
    for (const pool of values.pools(home)) {
      candidates.push({
        value: pool.id,
        description: pool.label === undefined ? 'pool' : `pool ${pool.label}`,
      });
      if (pool.label !== undefined)
        candidates.push({ value: pool.label, description: `label of ${pool.id}` });
    }
    return { candidates, fallback: 'none' };
  }
  if (RUN_NAMES.has(name))
    return { candidates: words(values.workflowRuns(home), 'workflow run'), fallback: 'none' };
  if (name === 'lane' || name === 'lanes') return { candidates: words(LANES, 'lane'), fallback: 'none' };
  if (name === 'tier' || name === 'effort')
    return { candidates: words(TIERS, 'effort tier'), fallback: 'none' };
  if (name === 'shell') return { candidates: words(['bash', 'zsh', 'fish'], 'shell'), fallback: 'none' };
  if (DIR_NAMES.has(name)) return { candidates: [], fallback: 'dirs' };
  if (FILE_NAMES.has(name)) return { candidates: [], fallback: 'files' };
  return { candidates: [], fallback: 'none' };
}

function withPrefix(completion: Completion, prefix: string, typed: string): Completion {
  return {
    fallback: completion.fallback,
    candidates: matching(completion.candidates, typed).map((candidate) => ({
      ...candidate,
      value: prefix + candidate.value,
    })),
  };
}

/**
 * Completes the last word of a command line from the commander tree: `words` are the words after
 * the program name, the last one being the word under the cursor (empty after a space). Walks
 * the words as commander would parse them — subcommands, options and their values (`--home <dir>`
 * anywhere), positional arguments — then offers, for the word under the cursor: an option's
 * values (its choices, or pools, run ids, lanes, tiers by its name), option flags after a `-`, or
 * the subcommands and the next positional argument's values. Never throws for any input.
 */
export function completeCommandLine(
  program: Command,
  words: readonly string[],
  values: CompletionValues,
): Completion {
  const current = words.at(-1) ?? '';
  const done = words.slice(0, -1);
  const chain: Command[] = [program];
  let positional = 0;
  let home: string | undefined;
  let pendingOption: Option | undefined;
  let afterDashDash = false;

  for (const word of done) {
    const command = chain.at(-1)!;
    if (pendingOption !== undefined) {
      if (pendingOption.long === '--home') home = word;
      pendingOption = undefined;
      continue;
    }
    if (word === '--') {
      afterDashDash = true;
      continue;
    }
    if (!afterDashDash && word.startsWith('-') && word !== '-') {
      const [flag, inline] = word.split(/=(.*)/s, 2) as [string, string | undefined];
      const option = findOption(optionsInScope(chain), flag);
      if (option !== undefined && inline !== undefined && option.long === '--home') home = inline;
      if (option !== undefined && takesValue(option) && inline === undefined && option.required)
        pendingOption = option;
      continue;
    }
    const sub = positional === 0 ? findSubcommand(command, word) : undefined;
    if (sub !== undefined) {
      chain.push(sub);
      positional = 0;
      continue;
    }
    positional += 1;
  }

  const command = chain.at(-1)!;
  if (pendingOption !== undefined) {
    return withPrefix(
      valuesFor(optionName(pendingOption), pendingOption.argChoices, home, values),
      '',
      current,
    );
  }
  if (!afterDashDash && current.startsWith('-')) {
    const equals = current.indexOf('=');
    if (equals !== -1) {
      const option = findOption(optionsInScope(chain), current.slice(0, equals));
      if (option === undefined || !takesValue(option)) return { candidates: [], fallback: 'none' };
      const completion = valuesFor(optionName(option), option.argChoices, home, values);
      return withPrefix(
        { ...completion, fallback: 'none' },
        current.slice(0, equals + 1),
        current.slice(equals + 1),
      );
    }
    const flags: CompletionCandidate[] = [];
    for (const option of optionsInScope(chain)) {
      if (option.long !== undefined) flags.push({ value: option.long, description: option.description });
      else if (option.short !== undefined)
        flags.push({ value: option.short, description: option.description });
    }
    return { candidates: matching(flags, current), fallback: 'none' };
  }
  const candidates: CompletionCandidate[] = [];
  let fallback: CompletionFallback = 'none';
  if (positional === 0) {
    for (const sub of visibleCommands(command))
      candidates.push({ value: sub.name(), description: sub.description() });
  }
  const args = (command as unknown as { registeredArguments: readonly Argument[] }).registeredArguments ?? [];
  const last = args.at(-1);
  const argument = args[positional] ?? (last?.variadic ? last : undefined);
  if (argument !== undefined) {
    const completion = valuesFor(argument.name(), argument.argChoices, home, values);
    candidates.push(...completion.candidates);
    fallback = completion.fallback;
  }
  return { candidates: matching(candidates, current), fallback };
}
