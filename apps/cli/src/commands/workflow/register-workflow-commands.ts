import type { Command } from 'commander';
import type { CommandContext } from '../../cli/command-context';
import { examples } from '../../output/help-examples';
import { collect } from '../../parse/parse-options';

const EXIT_CODES =
  '\nExit codes: 0 every step ok, 1 a step failed or came back to you, 2 usage or validation error.\n';

/**
 * Registers `bullswarm workflow …` (goal, validate, list, watch, show, resume, restart) and
 * `bullswarm check-output-schema`. Every action imports its module lazily.
 */
export function registerWorkflowCommands(
  program: Command,
  contextOf: (command: Command) => CommandContext,
): void {
  const workflow = program
    .command('workflow')
    .description(
      'run a workflow program (bullswarm.workflow.program.v3): steps, fan-outs, blind reviews, output schemas',
    )
    .addHelpText(
      'after',
      examples(
        'bullswarm workflow validate examples/workflows/docs-write-review.json',
        'bullswarm workflow goal examples/workflows/docs-write-review.json --input subject=bullswarm',
        'bullswarm workflow list',
        'bullswarm workflow resume wf-a1b2c3d4 --when-ready',
      ),
    );

  workflow
    .command('goal')
    .description('run a program: every step routed by pacing, verified, recorded; a live view on a terminal')
    .argument('<program>', 'the program file (JSON)')
    .option('--input <k=v>', 'an input value (repeatable)', collect)
    .option('--worker-pool <pool>', 'pin every step to one pool (id or label)')
    .option(
      '--concurrency <n>',
      'steps in flight across the run (default: the program’s settings.concurrency, 4)',
    )
    .option(
      '--retry-attempts <n>',
      'automatic retries of a failed step that sets none itself: 0 to 5 (default: the program’s settings.retryAttempts, 1)',
    )
    .option('--cwd <dir>', 'the work tree the steps run in (default: the current directory)')
    .option('--dry-run', 'print the pool each step would get now and why; spawn nothing')
    .option('--json', 'print only the machine report (report.json) at the end')
    .addHelpText(
      'after',
      '\nOn a terminal the live view is drawn in place; otherwise every event is printed as one JSON line.\n' +
        EXIT_CODES +
        examples(
          'bullswarm workflow goal examples/workflows/docs-write-review.json',
          'bullswarm workflow goal review.json --input base=main --concurrency 8',
          'bullswarm workflow goal review.json --dry-run',
          'bullswarm workflow goal review.json --retry-attempts 0',
        ),
    )
    .action(async (file: string, _options, command: Command) => {
      const { workflowGoalCommand } = await import('./workflow-goal-command');
      await workflowGoalCommand(contextOf(command), file, command.optsWithGlobals());
    });

  workflow
    .command('validate')
    .description('check a program and print every problem with its JSON path (exit 2 when there is one)')
    .argument('<program>', 'the program file (JSON)')
    .option('--json', 'print {ok, file, problems} as JSON')
    .addHelpText('after', examples('bullswarm workflow validate review.json'))
    .action(async (file: string, _options, command: Command) => {
      const { workflowValidateCommand } = await import('./workflow-validate-command');
      await workflowValidateCommand(contextOf(command), file, command.optsWithGlobals());
    });

  workflow
    .command('list')
    .description('the runs in this home: id, name, status, counts, started')
    .option('--json', 'print the runs as JSON')
    .addHelpText('after', examples('bullswarm workflow list'))
    .action(async (_options, command: Command) => {
      const { workflowListCommand } = await import('./workflow-view-commands');
      await workflowListCommand(contextOf(command), command.optsWithGlobals());
    });

  workflow
    .command('watch')
    .description('follow a run live (from any terminal); a replay when it has ended')
    .argument('<runId>', 'the run id (see workflow list)')
    .addHelpText(
      'after',
      '\nEnvironment: BULLSWARM_WORKFLOW_WATCH_POLL_SEC, the seconds between re-reads of the run, from 0.001 to 60' +
        ' (default 0.2; anything else exits 2).\n' +
        `\nExit code: 0 when every step is ok, 1 otherwise.\n${examples('bullswarm workflow watch wf-a1b2c3d4')}`,
    )
    .action(async (runId: string, _options, command: Command) => {
      const { workflowWatchCommand } = await import('./workflow-view-commands');
      await workflowWatchCommand(contextOf(command), runId);
    });

  workflow
    .command('show')
    .description('a run’s view (steps, pools, verdicts, needs-you), or its report as JSON')
    .argument('<runId>', 'the run id (see workflow list)')
    .option('--json', 'print the machine report')
    .addHelpText(
      'after',
      examples('bullswarm workflow show wf-a1b2c3d4', 'bullswarm workflow show wf-a1b2c3d4 --json'),
    )
    .action(async (runId: string, _options, command: Command) => {
      const { workflowShowCommand } = await import('./workflow-view-commands');
      await workflowShowCommand(contextOf(command), runId, command.optsWithGlobals());
    });

  workflow
    .command('resume')
    .description(
      'run again what has no ok verdict (failed, came back, blocked, interrupted); verified work never reruns',
    )
    .argument('<runId>', 'the run id (see workflow list)')
    .option(
      '--when-ready',
      'first wait, with a countdown, until the earliest known back-at of the steps that came back',
    )
    .option('--json', 'print only the machine report at the end')
    .addHelpText(
      'after',
      EXIT_CODES +
        examples(
          'bullswarm workflow resume wf-a1b2c3d4',
          'bullswarm workflow resume wf-a1b2c3d4 --when-ready',
        ),
    )
    .action(async (runId: string, _options, command: Command) => {
      const { workflowResumeCommand } = await import('./workflow-resume-commands');
      await workflowResumeCommand(contextOf(command), runId, command.optsWithGlobals());
    });

  workflow
    .command('restart')
    .description('re-run one step (all of it), then whatever was blocked behind it')
    .argument('<runId>', 'the run id (see workflow list)')
    .argument('<step>', 'the step id')
    .option('--worker-pool <pool>', 'pin the step to one pool (id or label): pinned to <pool> (step restart)')
    .option('--json', 'print only the machine report at the end')
    .addHelpText(
      'after',
      EXIT_CODES + examples('bullswarm workflow restart wf-a1b2c3d4 review-docs --worker-pool codex'),
    )
    .action(async (runId: string, step: string, _options, command: Command) => {
      const { workflowRestartCommand } = await import('./workflow-resume-commands');
      await workflowRestartCommand(contextOf(command), runId, step, command.optsWithGlobals());
    });

  program
    .command('check-output-schema')
    .description(
      'check a candidate JSON answer against a step’s output schema (the preflight schema-bound workers run)',
    )
    .argument('<schema>', 'the output schema file')
    .argument('<candidate>', 'the candidate JSON file')
    .addHelpText(
      'after',
      '\nExit codes: 0 the candidate matches, 1 it does not (each mismatch with its JSON path), 2 bad input.\n' +
        examples('bullswarm check-output-schema schema.json candidate.json'),
    )
    .action(async (schema: string, candidate: string, _options, command: Command) => {
      const { checkOutputSchemaCommand } = await import('./check-output-schema-command');
      await checkOutputSchemaCommand(contextOf(command), schema, candidate);
    });
}
