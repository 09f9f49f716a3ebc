import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';
import { collect } from '../parse/parse-options';

/** Registers `bullswarm meters`: set, clear, claude-statusline. */
export function registerMetersCommands(program: Command, { contextOf }: RegistrarSetup): void {
  const meters = program
    .command('meters')
    .description('manual meter readings, and the Claude Code statusLine capture')
    .addHelpText(
      'after',
      examples(
        'bullswarm meters set grok --weekly 74 --resets-at weekly=2026-12-01T00:00:00Z',
        'bullswarm meters clear grok',
        'bullswarm meters claude-statusline   # as Claude Code runs it, its status JSON on stdin',
      ),
    );

  meters
    .command('set')
    .description("set a pool's meter by hand (replaces its source until cleared)")
    .argument('<pool>', 'pool id or label')
    .option('--5h <pct>', '5-hour window used %')
    .option('--weekly <pct>', 'weekly window used %')
    .option('--monthly <pct>', 'monthly window used %')
    .option(
      '--resets-at <window=iso>',
      'when a window resets, e.g. weekly=2026-12-01T00:00:00Z (repeatable)',
      collect,
    )
    .option('--json', 'print the reading as JSON')
    .addHelpText(
      'after',
      examples('bullswarm meters set grok --weekly 74 --resets-at weekly=2026-12-01T00:00:00Z'),
    )
    .action(async (ref: string, _options, command: Command) => {
      const { metersSetCommand } = await import('./meters-command');
      await metersSetCommand(contextOf(command), ref, command.optsWithGlobals());
    });

  meters
    .command('clear')
    .description("drop a pool's manual reading (its source is read again)")
    .argument('<pool>', 'pool id or label')
    .addHelpText('after', examples('bullswarm meters clear grok'))
    .action(async (ref: string, _options, command: Command) => {
      const { metersClearCommand } = await import('./meters-command');
      await metersClearCommand(contextOf(command), ref);
    });

  meters
    .command('claude-statusline')
    .description(
      'a Claude Code statusLine command: captures the rate limits Claude passes on stdin for the claude-code meter, prints a one-line status',
    )
    .option(
      '--config-dir <dir>',
      "the account's Claude config directory (default $CLAUDE_CONFIG_DIR, else ~/.claude)",
    )
    .addHelpText(
      'after',
      '\nIn ~/.claude/settings.json (or the account config dir):\n  "statusLine": { "type": "command", "command": "bullswarm meters claude-statusline" }\n' +
        examples(
          'bullswarm meters claude-statusline --config-dir ~/.claude-acme < status.json',
          'bullswarm meters claude-statusline   # as Claude Code runs it, its status JSON on stdin',
        ),
    )
    .action(async (_options, command: Command) => {
      const { metersClaudeStatuslineCommand } = await import('./meters-command');
      await metersClaudeStatuslineCommand(contextOf(command), command.optsWithGlobals());
    });
}
