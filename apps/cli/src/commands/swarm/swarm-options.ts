import type { Command } from 'commander';
import type { CommandContext } from '../../cli/command-context';

/** Options most swarm commands share. */
export const AS = ['--as <addr>', 'the address this agent acts as (default $BULLSWARM_AGENT)'] as const;
export const PLAN = [
  '--plan <P>',
  'the plan: <id>, or <repo>/<id> to tell plans of two repositories apart (default $BULLSWARM_PLAN)',
] as const;

/** How a registrar turns a command into the context of its action. */
export type ContextOf = (command: Command) => CommandContext;
