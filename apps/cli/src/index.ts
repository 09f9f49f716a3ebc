/**
 * `bullswarm`: the command line. Routes coding-agent tasks across every subscription you pay for.
 * See `bullswarm --help`.
 */
import { processIo } from './cli/cli-io';
import { runCli } from './cli/run-cli';

const code = await runCli(process.argv.slice(2), processIo());
process.exitCode = code;
