/**
 * `bullswarm`: the command line. Routes coding-agent tasks across every subscription you pay for.
 * See `bullswarm --help`.
 */
import { processIo } from './cli/cli-io';
import { runCli } from './cli/run-cli';

const code = await runCli(process.argv.slice(2), processIo());
process.exitCode = code;
// The command is done once its output is flushed: do not wait for timers or handles a library
// may leave behind (a kill-grace timer after a canceled run, a watcher being closed).
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => stream.write('', () => resolve()));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
