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
 * Whether to colour a stream (standard output, or standard error with its own `isTTY`). In this
 * order, the first rule that applies decides:
 *
 * 1. `--no-color` on the command line: never (the most specific choice, made for this command).
 * 2. `FORCE_COLOR` set and not empty, whatever its value (https://force-color.org): always, even
 *    into a pipe or a file and with `TERM=dumb`. It wins over `NO_COLOR`, as force-color.org's
 *    reference implementation does (a user who sets both asks for colour here). `FORCE_COLOR=0`
 *    forces colour too; unset it, or use `NO_COLOR` or `--no-color`, for none.
 * 3. `NO_COLOR` set and not empty (https://no-color.org): never.
 * 4. Otherwise: when the stream is a terminal and `TERM` is not `dumb`.
 */
export function shouldColor(io: Pick<CliIo, 'env' | 'stdoutIsTTY'>, colorFlag: boolean): boolean {
  if (!colorFlag) return false;
  const forceColor = io.env.FORCE_COLOR;
  if (forceColor !== undefined && forceColor !== '') return true;
  const noColor = io.env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  return io.stdoutIsTTY && io.env.TERM !== 'dumb';
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
