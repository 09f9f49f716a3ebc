import { Command, Option } from 'commander';
import { registerSwarmCommands } from '../commands/swarm/register-swarm-commands';
import { registerWorkflowCommands } from '../commands/workflow/register-workflow-commands';
import { examples } from '../output/help-examples';
import { collect } from '../parse/parse-options';
import type { CliIo } from './cli-io';
import { type CommandContext, createCommandContext, type GlobalOptions, printJson } from './command-context';
import { commanderUsageJson, withUsageJson } from './usage-json';

/** The version printed by `bullswarm --version` (set at build time). */
export const VERSION: string = __BULLSWARM_VERSION__;

/** The top-level commands this file defines (the swarm and workflow ones are registered at the end). */
export const OWN_COMMANDS: ReadonlySet<string> = new Set([
  'pools',
  'run',
  'assignments',
  'strategy',
  'setup',
  'meters',
  'demo',
  'connectors',
  'dashboard',
  'mcp',
]);

/** Options of {@link buildProgram}. */
export interface BuildProgramOptions {
  /**
   * The command word of the command line (launcher/choose-bundle.ts `commandWord`). When it names
   * one of {@link OWN_COMMANDS}, the swarm and workflow commands are not defined: commander
   * dispatches to the named command and never looks at its siblings (only the program's help and
   * its did-you-mean suggestions list them), and defining those ~40 commands is ~1.5 ms of a start.
   */
  readonly commandWord?: string;
  /**
   * Runs a whole command line (run-cli.ts's `runCli`, passed in by it): `demo` runs the real
   * commands through it. Injected, so this module and the demo never import run-cli (which
   * imports this one).
   */
  readonly runCli?: (argv: readonly string[], io: CliIo) => Promise<number>;
  /**
   * `--json` is on the command line (usage-json.ts `wantsJson`): a command whose `--json` promises
   * JSON on stdout prints its commander parse errors as JSON too.
   */
  readonly json?: boolean;
}

/**
 * The `bullswarm` program (commander). Every action imports its command module lazily, so a
 * command loads only what it uses (startup time matters: `pools` runs in scripts and statuslines).
 * Errors propagate to the one try/catch in {@link runCli}.
 */
export function buildProgram(io: CliIo, options: BuildProgramOptions = {}): Command {
  const program = new Command('bullswarm');
  // Options are read with optsWithGlobals(): a parent's option (`pools --json`, `--home`) given
  // after a subcommand name is parsed by the parent, and still belongs to the subcommand.
  const contextOf = (command: Command): CommandContext =>
    createCommandContext(io, command.optsWithGlobals() as GlobalOptions);

  program
    .description(
      'Route coding-agent tasks across every subscription you pay for, to the pool whose quota is most at risk of expiring unspent.',
    )
    .version(VERSION, '-V, --version', 'print the bullswarm version')
    .option('--home <dir>', 'the state home (default $BULLSWARM_HOME, else ~/.bullswarm)')
    .option('--debug', 'print stack traces on errors (and, in pools, why a meter could not be read)')
    .option('--no-color', 'never colour the output (NO_COLOR is honoured too)')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
      outputError: (text, write) => write(text),
    })
    .addHelpText(
      'after',
      examples(
        'bullswarm demo',
        'bullswarm setup --yes --strategy',
        'bullswarm pools',
        'bullswarm run --lane analyze "Explain the parser"',
      ),
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 success, 1 the task failed or hit a limit, 2 usage error or bad input.\n',
    );

  // ---- pools ---------------------------------------------------------------------------------
  const pools = program
    .command('pools')
    .description('every pool with its meter, pace, load and any spent window')
    .option('--json', 'print the same numbers per pool as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm pools',
        'bullswarm pools --json',
        'bullswarm pools add claude-code:work --label work',
      ),
    )
    .action(async (_options, command: Command) => {
      const { poolsListCommand } = await import('../commands/pools-command');
      await poolsListCommand(contextOf(command), command.optsWithGlobals());
    });

  pools
    .command('reserve')
    .description(
      'keep a share of a window for yourself: routing treats the window as spent at 100 − reserve % used (a pin may still use it)',
    )
    .argument('<pool>', 'pool id or label')
    .option('--5h <pct>', 'the share of the 5-hour window to keep, 0–90 (0 drops it)')
    .option('--weekly <pct>', 'the share of the weekly window to keep, 0–90 (0 drops it)')
    .option('--monthly <pct>', 'the share of the monthly window to keep, 0–90 (0 drops it)')
    .option('--clear', 'drop every reserve of the pool')
    .option('--json', 'print the pool and its reserves as JSON')
    .addHelpText(
      'after',
      '\nWithout a window flag it prints what the pool keeps. Whole numbers or one decimal (12.5).\n' +
        examples(
          'bullswarm pools reserve claude-code:acme --5h 20 --weekly 15',
          'bullswarm pools reserve gemini --monthly 10',
          'bullswarm pools reserve claude-code:acme --weekly 0',
          'bullswarm pools reserve claude-code:acme --clear',
          'bullswarm pools reserve claude-code:acme --json',
        ),
    )
    .action(async (ref: string, _options, command: Command) => {
      const { poolsReserveCommand } = await import('../commands/pools-reserve-command');
      await poolsReserveCommand(contextOf(command), ref, command.optsWithGlobals());
    });

  pools
    .command('add')
    .description('add a pool: a connector, optionally under a named account')
    .argument('<connector[:account]>', 'e.g. claude-code, or codex:work')
    .option('--label <label>', 'a display label (no spaces, not another pool id)')
    .option('--env <K=V>', 'account environment for the agent CLI (repeatable)', collect)
    .option('--command <path>', "the agent CLI's path or name, overriding the connector's")
    .option('--disabled', 'add the pool disabled')
    .option(
      '--model <tier=model>',
      'the model for a tier, from the connector allow-list; <tier>=none for no model (repeatable)',
      collect,
    )
    .option('--json', 'print the added pool as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm pools add claude-code',
        'bullswarm pools add claude-code:acme --env CLAUDE_CONFIG_DIR=$HOME/.claude-acme --label acme',
        'bullswarm pools add codex:work --model high=gpt-6.2-astra --model low=none',
      ),
    )
    .action(async (spec: string, _options, command: Command) => {
      const { poolsAddCommand } = await import('../commands/pools-command');
      await poolsAddCommand(contextOf(command), spec, command.optsWithGlobals());
    });

  pools
    .command('remove')
    .description('remove a pool (and its tier assignments and label; its history is kept)')
    .argument('<pool>', 'pool id or label')
    .option('--json', 'print the removed pool as JSON')
    .addHelpText('after', examples('bullswarm pools remove codex:work'))
    .action(async (ref: string, _options, command: Command) => {
      const { poolsRemoveCommand } = await import('../commands/pools-command');
      await poolsRemoveCommand(contextOf(command), ref, command.optsWithGlobals());
    });

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    pools
      .command(name)
      .description(enabled ? 'make a pool a candidate again' : 'keep a pool out of every pick')
      .argument('<pool>', 'pool id or label')
      .option('--json', 'print the changed pool as JSON')
      .addHelpText('after', examples(`bullswarm pools ${name} codex`))
      .action(async (ref: string, _options, command: Command) => {
        const { poolsEnableCommand } = await import('../commands/pools-command');
        await poolsEnableCommand(contextOf(command), ref, enabled, command.optsWithGlobals());
      });
  }

  pools
    .command('label')
    .description('set, clear or list pool display labels (commands accept a label or an id)')
    .argument('[pool]', 'pool id or current label')
    .argument('[label]', 'the new label: no spaces, not another pool id')
    .option('--list', 'list every label')
    .option('--clear', "remove the pool's label")
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm pools label claude-code:acme acme',
        'bullswarm pools label --list',
        'bullswarm pools label claude-code:acme --clear',
      ),
    )
    .action(async (ref: string | undefined, label: string | undefined, _options, command: Command) => {
      const { poolsLabelCommand } = await import('../commands/pools-command');
      await poolsLabelCommand(contextOf(command), ref, label, command.optsWithGlobals());
    });

  // ---- run -----------------------------------------------------------------------------------
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
      const { runCommand } = await import('../commands/run-command');
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
      if (options.json) io.out(`${JSON.stringify(commanderUsageJson(text), null, 2)}\n`);
      else write(text);
    },
  });

  // ---- assignments ---------------------------------------------------------------------------
  program
    .command('assignments')
    .description('what is in flight now, across every bullswarm process on this machine')
    .option('--json', 'print the in-flight entries as JSON')
    .addHelpText('after', examples('bullswarm assignments', 'bullswarm assignments --json'))
    .action(async (_options, command: Command) => {
      const { assignmentsCommand } = await import('../commands/assignments-command');
      await assignmentsCommand(contextOf(command), command.optsWithGlobals());
    });

  // ---- strategy ------------------------------------------------------------------------------
  const strategy = program
    .command('strategy')
    .description(
      'per pool and tier: model, recorded wall time, stall threshold, spend rates; and tier assignments',
    )
    .option('--json', 'print the strategy as JSON')
    .addHelpText(
      'after',
      examples('bullswarm strategy', 'bullswarm strategy assign high --pool claude-code:acme --model opus'),
    )
    .action(async (_options, command: Command) => {
      const { strategyShowCommand } = await import('../commands/strategy-command');
      await strategyShowCommand(contextOf(command), command.optsWithGlobals());
    });

  strategy
    .command('assign')
    .description(
      "prefer one pool for a tier (a preference among selectable pools, never a bypass); sets the pool's model for the tier",
    )
    .argument('<tier>', 'effort tier, e.g. high')
    .requiredOption('--pool <pool>', 'pool id or label')
    .requiredOption('--model <model>', "a model from the pool connector's allow-list for the tier")
    .option('--json', 'print the assignment as JSON')
    .addHelpText('after', examples('bullswarm strategy assign high --pool claude-code:acme --model opus'))
    .action(async (tier: string, _options, command: Command) => {
      const { strategyAssignCommand } = await import('../commands/strategy-command');
      await strategyAssignCommand(contextOf(command), tier, command.optsWithGlobals());
    });

  strategy
    .command('unassign')
    .description("remove a tier's assignment (the tier is then picked by surplus)")
    .argument('<tier>', 'effort tier')
    .option('--json', 'print the removed assignment as JSON')
    .addHelpText('after', examples('bullswarm strategy unassign high'))
    .action(async (tier: string, _options, command: Command) => {
      const { strategyUnassignCommand } = await import('../commands/strategy-command');
      await strategyUnassignCommand(contextOf(command), tier, command.optsWithGlobals());
    });

  strategy
    .command('apply')
    .description("set each pool's model per tier to its connector default (pins nothing)")
    .option('--json', 'print the models set as JSON')
    .addHelpText('after', examples('bullswarm strategy apply'))
    .action(async (_options, command: Command) => {
      const { strategyApplyCommand } = await import('../commands/strategy-command');
      await strategyApplyCommand(contextOf(command), command.optsWithGlobals());
    });

  strategy
    .command('set-subscription')
    .description('override the pacing window a connector declares for one pool')
    .argument('<pool>', 'pool id or label')
    .addOption(
      new Option('--quota-window <window>', 'the window pace is computed from')
        .choices(['weekly', 'monthly'])
        .makeOptionMandatory(),
    )
    .option('--resets-at <iso>', 'when that window ends, for a provider that reports usage but no reset')
    .option('--json', 'print the changed pool as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm strategy set-subscription grok --quota-window monthly --resets-at 2026-12-01T00:00:00Z',
      ),
    )
    .action(async (ref: string, _options, command: Command) => {
      const { strategySetSubscriptionCommand } = await import('../commands/strategy-command');
      await strategySetSubscriptionCommand(contextOf(command), ref, command.optsWithGlobals());
    });

  // ---- setup ---------------------------------------------------------------------------------
  program
    .command('setup')
    .description('find the agent CLIs on PATH and their accounts, and create their pools')
    .option('--yes', 'create the pools without asking')
    .option('--strategy', "also set each pool's model per tier to its connector default (as strategy apply)")
    .option('--json', 'print the plan and what was created as JSON')
    .addHelpText('after', examples('bullswarm setup', 'bullswarm setup --yes --strategy'))
    .action(async (_options, command: Command) => {
      const { setupCommand } = await import('../commands/setup-command');
      await setupCommand(contextOf(command), command.optsWithGlobals());
    });

  // ---- meters --------------------------------------------------------------------------------
  const meters = program
    .command('meters')
    .description('manual meter readings, and the Claude Code statusLine capture');

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
      const { metersSetCommand } = await import('../commands/meters-command');
      await metersSetCommand(contextOf(command), ref, command.optsWithGlobals());
    });

  meters
    .command('clear')
    .description("drop a pool's manual reading (its source is read again)")
    .argument('<pool>', 'pool id or label')
    .addHelpText('after', examples('bullswarm meters clear grok'))
    .action(async (ref: string, _options, command: Command) => {
      const { metersClearCommand } = await import('../commands/meters-command');
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
      const { metersClaudeStatuslineCommand } = await import('../commands/meters-command');
      await metersClaudeStatuslineCommand(contextOf(command), command.optsWithGlobals());
    });

  // ---- connectors ----------------------------------------------------------------------------
  const connectors = program
    .command('connectors')
    .description(
      'third-party connector packages this home loads (kept in $BULLSWARM_HOME/state.json config.connectors)',
    )
    .addHelpText(
      'after',
      examples(
        'bullswarm connectors add bullswarm-connector-foo',
        'bullswarm connectors add ./path/to/bullswarm-connector-foo',
        'bullswarm connectors list',
      ),
    );

  connectors
    .command('add')
    .description(
      'resolve a connector package (or connector.json) from here, check it loads, and store where it is, so every command finds it from any directory',
    )
    .argument(
      '<package-or-path>',
      'an installed bullswarm-connector-* package, its directory, or a connector.json',
    )
    .option('--json', 'print the stored entry as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm connectors add bullswarm-connector-foo',
        'bullswarm connectors add ./node_modules/@acme/bullswarm-connector-foo',
        'bullswarm connectors add ./my-connector/connector.json',
      ),
    )
    .action(async (what: string, _options, command: Command) => {
      const { connectorsAddCommand } = await import('../commands/connectors-command');
      await connectorsAddCommand(contextOf(command), what, command.optsWithGlobals());
    });

  connectors
    .command('remove')
    .description('stop loading a configured connector (its pools stay)')
    .argument('<entry>', 'the connector id, or the package name or path as `connectors list` shows it')
    .option('--json', 'print the removed entries as JSON')
    .addHelpText(
      'after',
      examples('bullswarm connectors remove bullswarm-connector-foo', 'bullswarm connectors remove foo'),
    )
    .action(async (what: string, _options, command: Command) => {
      const { connectorsRemoveCommand } = await import('../commands/connectors-command');
      await connectorsRemoveCommand(contextOf(command), what, command.optsWithGlobals());
    });

  connectors
    .command('list')
    .description('every configured connector entry, and whether it loads')
    .option('--json', 'print the entries as JSON')
    .addHelpText('after', examples('bullswarm connectors list', 'bullswarm connectors list --json'))
    .action(async (_options, command: Command) => {
      const { connectorsListCommand } = await import('../commands/connectors-command');
      await connectorsListCommand(contextOf(command), command.optsWithGlobals());
    });

  // ---- demo ----------------------------------------------------------------------------------
  program
    .command('demo')
    .description('see routing at work on simulated pools: pools, a dry run, a real run, and a free chore')
    .option('--keep', 'keep the demo home and print where it is')
    .addHelpText(
      'after',
      '\nThe demo uses a temporary home, removed at the end unless --keep. With --home, the directory must be\nnew, empty or an earlier demo home (the demo writes its own pools there), and it is kept.\n' +
        examples('bullswarm demo', 'bullswarm demo --home /tmp/bs-demo --keep'),
    )
    .action(async (_options, command: Command) => {
      const { demoCommand } = await import('../commands/demo-command');
      if (options.runCli === undefined)
        throw new Error('bullswarm internal error: demo needs buildProgram({ runCli })');
      await demoCommand(contextOf(command), command.optsWithGlobals(), options.runCli);
    });

  // ---- dashboard -----------------------------------------------------------------------------
  program
    .command('dashboard')
    .description(
      'web pages for pools, runs, workflows and the swarm, live, on 127.0.0.1 with an access token',
    )
    .option('--port <n>', 'the port to listen on, 0 for any free one (default 7878)')
    .option(
      '--host <address>',
      'the address to listen on (default 127.0.0.1; anything else is reachable from the network)',
    )
    .option('--open', 'open the address in the desktop browser')
    .addHelpText(
      'after',
      '\nEvery request needs the token in the printed address (the page keeps it in a cookie); Ctrl-C stops it.\n' +
        examples(
          'bullswarm dashboard',
          'bullswarm dashboard --port 0 --open',
          'bullswarm --home /tmp/bs-demo dashboard',
        ),
    )
    .action(async (_options, command: Command) => {
      const { dashboardCommand } = await import('../commands/dashboard-command');
      await dashboardCommand(contextOf(command), command.optsWithGlobals());
    });

  // ---- mcp -----------------------------------------------------------------------------------
  program
    .command('mcp')
    .description(
      'serve bullswarm to an agent as an MCP server on stdio: pools, route, run, workflows, capacity, notices',
    )
    .addHelpText(
      'after',
      '\nAn agent CLI starts it and talks JSON-RPC on stdin/stdout; logs go to stderr. Tools: pools, route, run,\n' +
        'workflow_start, workflow_status, workflow_resume, capacity, notify, inbox. The agent that starts the\n' +
        'server is never a pool of its own runs. BULLSWARM_MCP_PROGRESS_SEC sets the heartbeat of run progress\n' +
        '(0.01 to 3600 s, default 15).\n' +
        examples(
          'claude mcp add bullswarm -- bullswarm mcp',
          'codex mcp add bullswarm -- bullswarm mcp',
          'bullswarm --home ~/.bullswarm-work mcp',
        ),
    )
    .action(async (_options, command: Command) => {
      const { mcpCommand } = await import('../commands/mcp-command');
      await mcpCommand(contextOf(command));
    });

  // A command line naming one of the commands above needs none of those below (see commandWord).
  if (options.commandWord !== undefined && OWN_COMMANDS.has(options.commandWord)) return program;

  // ---- swarm (capacity, pick, lease, agent, lead, notify, inbox, handoff, …) -------------------
  registerSwarmCommands(program, contextOf);

  // ---- workflow (goal, validate, list, watch, show, resume, restart), check-output-schema -------
  registerWorkflowCommands(program, contextOf);

  return program;
}
