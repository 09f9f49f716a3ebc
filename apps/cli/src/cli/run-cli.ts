import { createRedactor } from '@bullswarm/connectors/redact';
import { COMPLETE_COMMAND } from '../completion/completion-scripts';
import { commandWord } from '../launcher/choose-bundle';
import { type CliIo, redactingIo } from './cli-io';
import { reportError } from './exit-codes';
import { buildProgram } from './program';
import { wantsJson } from './usage-json';

/**
 * Runs one `bullswarm` command line and returns its exit code. The one top-level try/catch of the
 * CLI: every error a command throws is mapped here (usage and input errors → 2, a failed task → 1),
 * printed without a stack unless `--debug` is given.
 *
 * @param argv the arguments after the program name, e.g. `['pools', '--json']`
 * @param io where to read and write (the process's streams, or the demo's)
 */
export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  const debug = argv.includes('--debug');
  // Nothing secret leaves: every line this command prints goes through the one redactor.
  const io = rawIo.addSecretEnv === undefined ? redactingIo(rawIo, createRedactor([rawIo.env])) : rawIo;
  // The completion scripts' call at each Tab: before commander, so no completed word is parsed as
  // a bullswarm option (completion/run-completion-request.ts).
  if (argv[0] === COMPLETE_COMMAND) {
    const { runCompletionRequest } = await import('../completion/run-completion-request');
    return runCompletionRequest(argv.slice(1), io);
  }
  try {
    await buildProgram(io, { commandWord: commandWord(argv), runCli, json: wantsJson(argv) }).parseAsync(
      [...argv],
      {
        from: 'user',
      },
    );
    return 0;
  } catch (error) {
    const report = reportError(error);
    if (report.message !== '') io.err(`${report.message}\n`);
    if (debug && error instanceof Error && error.stack && report.message !== '') {
      io.err(`${error.stack}\n`);
      if (error.cause instanceof Error && error.cause.stack) io.err(`caused by: ${error.cause.stack}\n`);
    } else if (report.unexpected) {
      io.err('(this looks like a bug in bullswarm; run again with --debug for the stack trace)\n');
    }
    return report.exitCode;
  }
}
