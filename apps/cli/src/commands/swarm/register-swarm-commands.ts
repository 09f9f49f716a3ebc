import type { Command } from 'commander';
import type { CommandContext } from '../../cli/command-context';
import { registerCapacityCommands } from './register-capacity-commands';
import { registerLeadCommands } from './register-lead-commands';
import { registerNoticeHandoffCommands } from './register-notice-handoff-commands';
import { registerPlanCommands } from './register-plan-commands';

/**
 * Registers the swarm commands on the program: capacity, pick, lease, agent, lead, notify, inbox,
 * handoff, escalate, escalation, task, plan, swarm drill. Every action imports its module lazily,
 * and every command's `--help` ends with examples that run it.
 */
export function registerSwarmCommands(
  program: Command,
  contextOf: (command: Command) => CommandContext,
): void {
  registerCapacityCommands(program, contextOf);
  registerLeadCommands(program, contextOf);
  registerNoticeHandoffCommands(program, contextOf);
  registerPlanCommands(program, contextOf);
}
