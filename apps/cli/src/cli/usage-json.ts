import { CliExit } from './cli-errors';
import { EXIT, reportError } from './exit-codes';

/**
 * What a `--json` command prints on stdout instead of `error: …` when its command line is wrong
 * (exit 2), so a script reading stdout sees an object either way: `{ ok: false, kind: 'usage',
 * flag, message }`. `flag` names the flag or argument at fault when it is known, else null.
 */
export interface UsageErrorJson {
  readonly ok: false;
  readonly kind: 'usage';
  readonly flag: string | null;
  readonly message: string;
}

/** True when `--json` is among the options of a command line (words after `--` are not options). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** The JSON of a commander parse error's text (`error: option '--lane <lane>' argument …`). */
export function commanderUsageJson(text: string): UsageErrorJson {
  const message = text.trim().replace(/^error: /, '');
  const flag = /'(--?[A-Za-z0-9-]+)/.exec(message)?.[1] ?? null;
  return { ok: false, kind: 'usage', flag, message };
}

/**
 * Runs a `--json` command's body; a usage error it throws is printed as {@link UsageErrorJson} on
 * stdout and ends the command with exit 2 (nothing on stderr). Any other error is rethrown.
 */
export async function withUsageJson(
  json: boolean,
  print: (value: UsageErrorJson) => void,
  body: () => Promise<void>,
): Promise<void> {
  try {
    await body();
  } catch (error) {
    const report = reportError(error);
    if (!json || report.exitCode !== EXIT.usage || report.message === '') throw error;
    const fields = error as { flag?: unknown; field?: unknown };
    const flag =
      typeof fields.flag === 'string' ? fields.flag : typeof fields.field === 'string' ? fields.field : null;
    print({ ok: false, kind: 'usage', flag, message: report.message.replace(/^error: /, '') });
    throw new CliExit(EXIT.usage);
  }
}
