/**
 * The bundle's entry: `main(argv)` runs one `bullswarm` command line in this process and resolves
 * to its exit code. `dist/index.js` (the bin) loads the bundle and calls it.
 */
import { processIo } from './cli/cli-io';
import { runCli } from './cli/run-cli';

export { runCli } from './cli/run-cli';

/**
 * Runs `bullswarm <argv>` with the process's streams; resolves to the exit code once the output
 * is flushed. A reader that goes away (`bullswarm pools | head -1`, EPIPE) ends the process
 * quietly (see cli-io.ts).
 */
export async function main(argv: readonly string[]): Promise<number> {
  const io = processIo();
  const code = await runCli(argv, io);
  await io.flush();
  return code;
}
