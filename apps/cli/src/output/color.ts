import { styleText } from 'node:util';
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

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'magenta' | 'cyan';

/**
 * A style through Node's `util.styleText`. The decision to colour is {@link shouldColor}'s, so
 * Node's own stream check (Node 22+) is turned off: the text is styled whenever colour is on.
 */
const style =
  (format: Style) =>
  (text: string): string =>
    (styleText as (format: Style, text: string, options?: { validateStream?: boolean }) => string)(
      format,
      text,
      { validateStream: false },
    );

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
    bold: style('bold'),
    dim: style('dim'),
    red: style('red'),
    green: style('green'),
    yellow: style('yellow'),
    magenta: style('magenta'),
    cyan: style('cyan'),
  };
}
