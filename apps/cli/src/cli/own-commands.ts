import { registerAssignmentsCommand } from '../commands/register-assignments-command';
import { registerCompletionCommand } from '../commands/register-completion-command';
import { registerConnectorsCommands } from '../commands/register-connectors-commands';
import { registerDashboardCommand } from '../commands/register-dashboard-command';
import { registerDemoCommand } from '../commands/register-demo-command';
import { registerDoctorCommand } from '../commands/register-doctor-command';
import { registerMcpCommand } from '../commands/register-mcp-command';
import { registerMetersCommands } from '../commands/register-meters-commands';
import { registerPoolsCommands } from '../commands/register-pools-commands';
import { registerRunCommand } from '../commands/register-run-command';
import { registerSetupCommand } from '../commands/register-setup-command';
import { registerStoreCommand } from '../commands/register-store-command';
import { registerStrategyCommands } from '../commands/register-strategy-commands';
import type { CommandRegistrar } from './command-registrar';

/**
 * The top-level commands a command line that names one of them needs alone (program.ts
 * `commandWord`): each name with the registrar that defines it, in the order `bullswarm --help`
 * lists them. To add a command: write `commands/register-<name>-command.ts` (a
 * {@link CommandRegistrar} defining exactly the command `<name>`) and add its row here.
 * launcher/choose-bundle.test.ts checks each registrar defines exactly the name of its row.
 */
export const OWN_COMMAND_REGISTRARS: readonly (readonly [name: string, register: CommandRegistrar])[] = [
  ['pools', registerPoolsCommands],
  ['run', registerRunCommand],
  ['assignments', registerAssignmentsCommand],
  ['strategy', registerStrategyCommands],
  ['setup', registerSetupCommand],
  ['doctor', registerDoctorCommand],
  ['meters', registerMetersCommands],
  ['store', registerStoreCommand],
  ['connectors', registerConnectorsCommands],
  ['demo', registerDemoCommand],
  ['dashboard', registerDashboardCommand],
  ['mcp', registerMcpCommand],
  ['completion', registerCompletionCommand],
];

/** The names of {@link OWN_COMMAND_REGISTRARS}. */
export const OWN_COMMANDS: ReadonlySet<string> = new Set(OWN_COMMAND_REGISTRARS.map(([name]) => name));
