import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';

/** Registers `bullswarm mcp`: the MCP server on stdio. */
export function registerMcpCommand(program: Command, { contextOf }: RegistrarSetup): void {
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
      const { mcpCommand } = await import('./mcp-command');
      await mcpCommand(contextOf(command));
    });
}
