import type { Command } from 'commander';
import { examples } from '../../output/help-examples';
import { collect } from '../../parse/parse-options';
import { AS, type ContextOf, PLAN } from './swarm-options';

/** Registers escalate, escalation (answer, list), task (claim, done), plan status and swarm drill. */
export function registerPlanCommands(program: Command, contextOf: ContextOf): void {
  program
    .command('escalate')
    .description(
      'escalate a critical item to the developer; it must name its class C1–C7 (it blocks its dependency chain, not the swarm)',
    )
    .argument('<text...>', 'what is blocked and what it needs')
    .option(
      '--class <C>',
      'C1 authority, C2 consent screen, C3 ambiguity, C4 quality conflict, C5 damage, C6 terms, C7 capacity exhausted',
    )
    .option(...PLAN)
    .option('--task <task>', 'the blocked task')
    .option(...AS)
    .option('--json', 'print the escalation as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm escalate --class C1 --plan release-2 --task deploy "the production deploy needs the developer\'s go-ahead"',
        'bullswarm escalate --class C3 --plan release-2 --as lane-a "two outcomes satisfy the request and nothing settles it"',
      ),
    )
    .action(async (text: string[], _options, command: Command) => {
      const { escalateCommand } = await import('./escalation-command');
      await escalateCommand(contextOf(command), text, command.optsWithGlobals());
    });
  const escalation = program
    .command('escalation')
    .description('escalations: answer, list')
    .addHelpText(
      'after',
      examples(
        'bullswarm escalation list --plan release-2 --open',
        'bullswarm escalation answer 3 --plan release-2 "go ahead"',
      ),
    );
  escalation
    .command('answer')
    .description("record the developer's answer (relayed answers are recorded as relayed)")
    .argument('<id>', 'the escalation id')
    .argument('<answer...>', 'the answer')
    .option(...PLAN)
    .option('--relayed-by <addr>', 'the agent that relayed it')
    .option('--json', 'print the escalation as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm escalation answer 3 --plan release-2 "deploy after 18:00"',
        'bullswarm escalation answer 3 --plan release-2 --relayed-by lead-1 "yes"',
      ),
    )
    .action(async (id: string, answer: string[], _options, command: Command) => {
      const { escalationAnswerCommand } = await import('./escalation-command');
      await escalationAnswerCommand(contextOf(command), id, answer, command.optsWithGlobals());
    });
  escalation
    .command('list')
    .description('escalations of a plan')
    .option(...PLAN)
    .option('--open', 'only the unanswered ones')
    .option('--json', 'print them as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm escalation list --plan release-2',
        'bullswarm escalation list --plan release-2 --open --json',
      ),
    )
    .action(async (_options, command: Command) => {
      const { escalationListCommand } = await import('./escalation-command');
      await escalationListCommand(contextOf(command), command.optsWithGlobals());
    });

  const task = program
    .command('task')
    .description('task executors: claim, done')
    .addHelpText(
      'after',
      examples(
        'bullswarm task claim api --plan release-2 --as lane-a',
        'bullswarm task done api --plan release-2 --as lane-a --evidence logs/api-gate.txt',
      ),
    );
  task
    .command('claim')
    .description('take a task (one executor per task; refused to an agent that wrote a packet for it)')
    .argument('<task>', 'the task id')
    .option(...PLAN)
    .option(...AS)
    .addHelpText('after', examples('bullswarm task claim api --plan release-2 --as lane-a'))
    .action(async (id: string, _options, command: Command) => {
      const { taskClaimCommand } = await import('./task-command');
      await taskClaimCommand(contextOf(command), id, command.optsWithGlobals());
    });
  task
    .command('done')
    .description('mark a task done (its gate passed)')
    .argument('<task>', 'the task id')
    .option(...PLAN)
    .option(...AS)
    .option('--evidence <path>', 'evidence path (repeatable)', collect)
    .addHelpText(
      'after',
      examples('bullswarm task done api --plan release-2 --as lane-a --evidence logs/api-gate.txt'),
    )
    .action(async (id: string, _options, command: Command) => {
      const { taskDoneCommand } = await import('./task-command');
      await taskDoneCommand(contextOf(command), id, command.optsWithGlobals());
    });

  const plan = program
    .command('plan')
    .description('plans (plans/<id>/plan.json): status')
    .addHelpText('after', examples('bullswarm plan status --plan release-2'));
  plan
    .command('status')
    .description('each task done, blocked, running, ready or waiting; the lead; open escalations')
    .option(...PLAN)
    .option('--json', 'print the status as JSON')
    .addHelpText(
      'after',
      '\nA plan whose declared accounts all lack room, none resetting within its horizon (plan.json "horizon", default\n24h), is PARKED: the soonest reset is recorded and a C7 escalation sent once (pick --plan and handoff launch\npark it; an assignment or the developer\'s answer moves it again).\n' +
        examples(
          'bullswarm plan status --plan release-2',
          'bullswarm plan status --plan myrepo/release-2 --json',
        ),
    )
    .action(async (_options, command: Command) => {
      const { planStatusCommand } = await import('./task-command');
      await planStatusCommand(contextOf(command), command.optsWithGlobals());
    });

  const swarm = program
    .command('swarm')
    .description('swarm autonomy: the drill')
    .addHelpText('after', examples('bullswarm swarm drill', 'bullswarm swarm drill --dir /tmp/drill --json'));
  swarm
    .command('drill')
    .description(
      'prove the loop with no human keystroke: a scratch repository, a lead and three lanes on sim accounts, a capped lane handing off, a capped lead handing over',
    )
    .option(
      '--dir <scratch>',
      'a new or empty directory for the drill’s home and repository, kept (default a temp directory)',
    )
    .option('--keep', 'keep the temp directory (removed once the drill passes) and print where it is')
    .option('--json', 'print the whole report as JSON')
    .addHelpText(
      'after',
      '\nThe lead and lanes are drill actors following the protocol through the same library calls these commands use;\n' +
        'the lane work and the successor are real bullswarm-sim processes started through dispatch. Evidence goes to\n' +
        'plans/drill/analysis_results/ in the scratch repository.\n' +
        examples(
          'bullswarm swarm drill',
          'bullswarm swarm drill --keep',
          'bullswarm swarm drill --dir /tmp/drill --json',
        ),
    )
    .action(async (_options, command: Command) => {
      const { drillCommand } = await import('./drill-command');
      await drillCommand(contextOf(command), command.optsWithGlobals());
    });
}
