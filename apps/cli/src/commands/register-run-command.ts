import { type Command, Option } from 'commander';
import { printJson } from '../cli/command-context';
import type { RegistrarSetup } from '../cli/command-registrar';
import { commanderUsageJson, withUsageJson } from '../cli/usage-json';
import { examples } from '../output/help-examples';
import { collect } from '../parse/parse-options';

/** Registers `bullswarm run`: route one task and run it (or show the pick with --dry-run). */
export function registerRunCommand(
  program: Command,
  { contextOf, io, json: jsonOnCommandLine }: RegistrarSetup,
): void {
  const run = program
    .command('run')
    .description('route one task to the best pool and run it there (or only show the pick with --dry-run)')
    .argument('[prompt...]', 'the task; "-" reads it from stdin')
    // --lane is required, but checked by the command (planRun), not by commander: commander checks
    // mandatory options before unknown ones, so `run --bogus x` would blame the missing --lane.
    .addOption(
      new Option('--lane <lane>', 'the kind of work (required)').choices(['analyze', 'build', 'chore']),
    )
    .option(
      '--effort <tier>',
      'the effort tier: low, medium, high (default: analyze→medium, build→high, chore→low)',
    )
    .option('--prompt-file <file>', 'read the prompt from a file')
    .option('--add-dir <dir>', 'another directory the agent may use (repeatable)', collect)
    .option('--cwd <dir>', "the agent's working directory (default: the current directory)")
    .option('--worker-pool <pool>', 'pin the run to one pool (id or label)')
    .option(
      '--retry-attempts <n>',
      'automatic retries after a crash, stall, sign-in failure or empty answer: 0 to 10 (default 1)',
    )
    .option('--dry-run', 'show the pick and its forecast; spawn nothing')
    .option(
      '--when-ready',
      'when no pool can take the task and a back-at is known, wait for it (a countdown; Ctrl-C stops), then route again',
    )
    .option(
      '--max-wait <duration>',
      'with --when-ready: the longest wait, e.g. 3h, 90m (longer: exit 1 with the back-at)',
    )
    .option('--json', 'print one JSON object with the result and the candidate rows')
    .option('--no-caller', 'accepted and ignored; on its way out (the caller is never a pool of its own run)')
    .addHelpText(
      'after',
      examples(
        'bullswarm run --lane analyze --add-dir . --dry-run "Explain the parser"',
        'bullswarm run --lane build --effort high "Fix the failing test in src/parser"',
        'git diff | bullswarm run --lane chore -',
        'bullswarm run --lane analyze --worker-pool codex --json "Summarise README.md"',
        'bullswarm run --lane build --when-ready --max-wait 3h "Fix the flaky test"',
      ) +
        '\nEnvironment: BULLSWARM_WHEN_READY_POLL_SEC, the seconds between meter re-reads while --when-ready waits (a pool back early ends the wait), from 0.001 to 600 (default 30)\n',
    )
    .action(async (prompt: string[], _options, command: Command) => {
      const { runCommand } = await import('./run-command');
      const context = contextOf(command);
      const json = command.optsWithGlobals().json === true;
      await withUsageJson(
        json,
        (value) => printJson(context, value),
        () => runCommand(context, prompt, command.optsWithGlobals()),
      );
    });
  // `run --json`: a commander parse error (a bad --lane, an unknown option) is JSON on stdout too.
  run.configureOutput({
    ...run.configureOutput(),
    outputError: (text, write) => {
      if (jsonOnCommandLine) io.out(`${JSON.stringify(commanderUsageJson(text), null, 2)}\n`);
      else write(text);
    },
  });
}
