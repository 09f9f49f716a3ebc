/**
 * The bundle's entry: `main(argv)` runs one `bullswarm` command line in this process and resolves
 * to its exit code. `dist/index.js` (the bin) loads the bundle and calls it.
 */
import { processIo } from './cli/cli-io';
import { runCli } from './cli/run-cli';

export { runCli } from './cli/run-cli';

/** Runs `bullswarm <argv>` with the process's streams; resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  // `bullswarm pools | head -1`: the reader went away; stop quietly instead of crashing on EPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  return runCli(argv, processIo());
}
