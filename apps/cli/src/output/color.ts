import type { CliIo } from '../cli/cli-io';

/** ANSI styles used by the CLI; each is the identity when colour is off. */
export interface Colors {
  readonly enabled: boolean;
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly magenta: (text: string) => string;
  readonly cyan: (text: string) => string;
}

const wrap =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

const identity = (text: string): string => text;

/**
 * Colour is on only when standard output is a terminal, `--no-color` was not given, `NO_COLOR` is
 * unset or empty (https://no-color.org), and `TERM` is not `dumb`.
 */
export function shouldColor(io: Pick<CliIo, 'env' | 'stdoutIsTTY'>, colorFlag: boolean): boolean {
  if (!colorFlag || !io.stdoutIsTTY) return false;
  const noColor = io.env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  return io.env.TERM !== 'dumb';
}

/** The styles for a colour decision. */
export function createColors(enabled: boolean): Colors {
  if (!enabled) {
    return {
      enabled,
      bold: identity,
      dim: identity,
      red: identity,
      green: identity,
      yellow: identity,
      magenta: identity,
      cyan: identity,
    };
  }
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    magenta: wrap(35, 39),
    cyan: wrap(36, 39),
  };
}
