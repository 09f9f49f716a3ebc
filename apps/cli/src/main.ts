/**
 * The bundle's entry: `main(argv)` runs one `bullswarm` command line in this process and resolves
 * to its exit code. `dist/index.js` (the bin) loads the bundle and calls it.
 */
import { config as configureZod } from 'zod/v4/core';
import { processIo } from './cli/cli-io';
import { runCli } from './cli/run-cli';
import { commandWord } from './launcher/choose-bundle';

/**
 * Commands of the full bundle that parse a handful of documents once (state.json, the home's
 * connector manifests): zod's JIT is off for them, as for the core bundle's (see main-core.ts);
 * the long-running ones (workflow, swarm, dashboard, mcp) keep it.
 */
const ONE_SHOT_COMMANDS: ReadonlySet<string> = new Set(['run']);

export { runCli } from './cli/run-cli';

/**
 * Runs `bullswarm <argv>` with the process's streams; resolves to the exit code once the output
 * is flushed. A reader that goes away (`bullswarm pools | head -1`, EPIPE) ends the process
 * quietly (see cli-io.ts).
 */
export async function main(argv: readonly string[]): Promise<number> {
  if (ONE_SHOT_COMMANDS.has(commandWord(argv) ?? '')) configureZod({ jitless: true });
  const io = processIo();
  const code = await runCli(argv, io);
  await io.flush();
  return code;
}
