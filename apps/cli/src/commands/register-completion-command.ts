import { Argument, type Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { COMPLETION_SHELLS, type CompletionShell } from '../completion/completion-scripts';
import { examples } from '../output/help-examples';

/** Registers `bullswarm completion <shell>` (the hidden `__complete` it calls is run-cli.ts's). */
export function registerCompletionCommand(program: Command, { io }: RegistrarSetup): void {
  program
    .command('completion')
    .description(
      'print the shell completion script: commands, subcommands and flags, and at each Tab the pool ids and labels, lanes, tiers and workflow run ids of the home',
    )
    .addArgument(new Argument('<shell>', 'the shell').choices(COMPLETION_SHELLS))
    .addHelpText(
      'after',
      '\nThe script asks the installed bullswarm (`bullswarm __complete …`) at each Tab, so completions follow\n' +
        'upgrades and `--home` on the command line. Install it once:\n' +
        "  bash  echo 'source <(bullswarm completion bash)' >> ~/.bashrc\n" +
        "  zsh   echo 'source <(bullswarm completion zsh)' >> ~/.zshrc     (after compinit)\n" +
        '  fish  bullswarm completion fish > ~/.config/fish/completions/bullswarm.fish\n' +
        examples(
          'source <(bullswarm completion bash)',
          'bullswarm completion zsh > ~/.zsh/completions/_bullswarm   # a directory in $fpath',
          'bullswarm completion fish | source',
        ),
    )
    .action(async (shell: CompletionShell) => {
      const { completionScript } = await import('../completion/completion-scripts');
      io.out(completionScript(shell));
    });
}
