import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';

/** Registers `bullswarm doctor`: can each pool run, and if not, why. */
export function registerDoctorCommand(program: Command, { contextOf }: RegistrarSetup): void {
  program
    .command('doctor')
    .description(
      'check every pool: its CLI found (path, version inside the checked range), signed in, meter readable, last run',
    )
    .option('--json', 'print the checks of every pool as JSON')
    .addHelpText(
      'after',
      `${examples('bullswarm doctor', 'bullswarm doctor --json', 'bullswarm doctor --home ~/.bullswarm-work')}
Exit codes: 0 every pool can run, 1 a pool cannot (its CLI or connector is missing, or it is signed out; or there is no pool), 2 usage error.
Signed in is told without a network call (the CLI's own status command, or its credential files); "unknown" where it cannot be.
Environment: BULLSWARM_DOCTOR_TIMEOUT_SEC, how long each command doctor runs (a --version, a sign-in status) may take, in seconds (default 15)
`,
    )
    .action(async (_options, command: Command) => {
      const { doctorCommand } = await import('./doctor-command');
      await doctorCommand(contextOf(command), command.optsWithGlobals());
    });
}
