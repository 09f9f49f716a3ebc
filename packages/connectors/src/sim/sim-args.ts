/** The output shapes bullswarm-sim speaks. */
export const SIM_FORMATS = ['claude', 'codex', 'text'] as const;
export type SimFormat = (typeof SIM_FORMATS)[number];

/** Parsed command line of bullswarm-sim. */
export type SimArgs = {
  readonly format: SimFormat;
  readonly model?: string;
  readonly cwd?: string;
  readonly addDirs: readonly string[];
  /** The prompt from `-p`; undefined means read stdin. */
  readonly prompt?: string;
  /** `--help` / `-h`: print the usage and exit 0. */
  readonly help?: boolean;
};

export const SIM_USAGE =
  'usage: bullswarm-sim [--format claude|codex|text] [--model m] [--cwd d] [--add-dir d]... [-p <prompt> | -- <prompt>] (or the prompt on stdin)';

/** A command-line problem; the message names the flag and what is valid. */
export class SimUsageError extends Error {
  constructor(message: string) {
    super(`${message}\n${SIM_USAGE}`);
    this.name = 'SimUsageError';
  }
}

/**
 * Parses `bullswarm-sim [--format f] [--model m] [--cwd d] [--add-dir d]… -p <prompt>`.
 * `--flag=value` is accepted too; `--` ends flags and the rest is the prompt. `--verbose` and
 * `--output-format stream-json` are accepted and ignored so a Claude command line also works.
 */
export function parseSimArgs(argv: readonly string[]): SimArgs {
  let format: SimFormat = 'claude';
  let model: string | undefined;
  let cwd: string | undefined;
  let prompt: string | undefined;
  let help = false;
  const addDirs: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const raw = argv[index] as string;
    if (raw === '--') {
      prompt = argv.slice(index + 1).join(' ');
      break;
    }
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq === -1 ? raw : raw.slice(0, eq);
    const takeValue = (): string => {
      if (eq !== -1) return raw.slice(eq + 1);
      const value = argv[index + 1];
      if (value === undefined) throw new SimUsageError(`bullswarm-sim: ${flag} needs a value`);
      index += 1;
      return value;
    };
    switch (flag) {
      case '--format': {
        const value = takeValue();
        if (!SIM_FORMATS.includes(value as SimFormat)) {
          throw new SimUsageError(
            `bullswarm-sim: --format "${value}" is not valid; expected one of ${SIM_FORMATS.join(', ')}`,
          );
        }
        format = value as SimFormat;
        break;
      }
      case '--model':
      case '-m':
        model = takeValue();
        break;
      case '--cwd':
      case '-C':
        cwd = takeValue();
        break;
      case '--add-dir':
        addDirs.push(takeValue());
        break;
      case '-p':
      case '--prompt':
        prompt = takeValue();
        break;
      case '--help':
      case '-h':
        help = true;
        break;
      case '--verbose':
        break;
      case '--output-format':
        takeValue();
        break;
      default:
        throw new SimUsageError(`bullswarm-sim: unknown argument "${raw}"`);
    }
  }
  return {
    format,
    addDirs,
    ...(model === undefined ? {} : { model }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(prompt === undefined ? {} : { prompt }),
    ...(help ? { help } : {}),
  };
}
