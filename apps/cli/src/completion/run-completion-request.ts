import type { CliIo } from '../cli/cli-io';
import { buildProgram } from '../cli/program';
import { completeCommandLine } from './complete-command-line';
import { COMPLETION_SHELLS, type CompletionShell } from './completion-scripts';
import { homeCompletionValues } from './home-completion-values';

/**
 * `bullswarm __complete <shell> <words…>`: what the completion scripts call at each Tab (see
 * completion-scripts.ts). It reaches here before commander (run-cli.ts), so no word is taken for
 * a bullswarm option (`--home`, `--version`). Prints the candidates, one a line (`value<TAB>
 * description` for zsh and fish), then `:none`, `:files` or `:dirs`. Always exits 0 and prints
 * nothing on standard error, whatever the words or the home.
 */
export function runCompletionRequest(args: readonly string[], io: CliIo): number {
  try {
    const [shell, ...words] = args;
    if (!COMPLETION_SHELLS.includes(shell as CompletionShell)) return 0;
    const program = buildProgram(io);
    const completion = completeCommandLine(
      program,
      words.length === 0 ? [''] : words,
      homeCompletionValues(io.env, io.cwd),
    );
    const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
    const lines = completion.candidates.map((candidate) =>
      shell === 'bash' ? candidate.value : `${candidate.value}\t${oneLine(candidate.description)}`,
    );
    io.out(`${[...lines, `:${completion.fallback}`].join('\n')}\n`);
  } catch {
    // A completion never fails loudly: no candidates.
  }
  return 0;
}
