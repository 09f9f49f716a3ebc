import { SIM_CLI_PATH } from './package-paths';

/** Bin names this package ships; manifests may use them as `invocation.command`. */
export const BUNDLED_COMMANDS: Readonly<Record<string, string>> = { 'bullswarm-sim': SIM_CLI_PATH };

/**
 * Resolves a bundled bin name to the current Node binary plus the absolute path of the built
 * script, so `bullswarm-sim` runs with no PATH setup (in the repo and in a global install).
 * Any other command is returned unchanged with no prefix arguments.
 *
 * @example resolveBundledCommand('bullswarm-sim') // { command: process.execPath, args: ['/…/dist/sim-cli.js'] }
 */
export function resolveBundledCommand(command: string): { command: string; args: readonly string[] } {
  const script = BUNDLED_COMMANDS[command];
  return script === undefined ? { command, args: [] } : { command: process.execPath, args: [script] };
}

export { SIM_CLI_PATH };
