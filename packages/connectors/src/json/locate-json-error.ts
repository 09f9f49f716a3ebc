/** Where a JSON text first goes wrong. */
export interface JsonErrorLocation {
  readonly line: number;
  readonly column: number;
  /** What was expected there, e.g. `expected a value, found ","`. */
  readonly problem: string;
}

/**
 * Find the first syntax error of a text that `JSON.parse` refused, as line and column (1-based).
 * Node's own message carries no position on every version, so a small strict scanner finds it.
 * Returns undefined when the scanner finds no error (it then defers to `JSON.parse`'s message).
 */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  let at = 0;
  const fail = (problem: string): never => {
    throw new LocatedError(at, problem);
  };
  const found = () => (at >= text.length ? 'the end of the file' : JSON.stringify(text[at]));
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, at)) at += word.length;
    else fail(`expected a value, found ${found()}`);
  };
  const string = () => {
    at++;
    while (at < text.length && text[at] !== '"') {
      const char = text.charCodeAt(at);
      if (char < 0x20) fail('control character inside a string (use \\n, \\t, …)');
      if (text[at] === '\\') {
        at++;
        if (text[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail('bad \\u escape in a string');
          at += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[at] ?? 'x')) fail('bad escape in a string');
      }
      at++;
    }
    if (at >= text.length) fail('unterminated string');
    at++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (match === null) fail(`expected a value, found ${found()}`);
    at += (match as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{') object();
    else if (char === '[') array();
    else if (char === '"') string();
    else if (char === 't') literal('true');
    else if (char === 'f') literal('false');
    else if (char === 'n') literal('null');
    else number();
  };
  const object = () => {
    at++;
    space();
    if (text[at] === '}') {
      at++;
      return;
    }
    for (;;) {
      space();
      if (text[at] !== '"') fail(`expected a double-quoted field name, found ${found()}`);
      string();
      space();
      if (text[at] !== ':') fail(`expected ":" after the field name, found ${found()}`);
      at++;
      value();
      space();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === '}') {
        at++;
        return;
      }
      fail(`expected "," or "}", found ${found()}`);
    }
  };
  const array = () => {
    at++;
    space();
    if (text[at] === ']') {
      at++;
      return;
    }
    for (;;) {
      value();
      space();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === ']') {
        at++;
        return;
      }
      fail(`expected "," or "]", found ${found()}`);
    }
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) at = 1;
    value();
    space();
    if (at < text.length) fail(`unexpected ${found()} after the end of the JSON value`);
    return undefined;
  } catch (error) {
    if (!(error instanceof LocatedError)) throw error;
    const before = text.slice(0, error.position);
    const line = before.split('\n').length;
    const column = error.position - before.lastIndexOf('\n');
    return { line, column, problem: error.problem };
  }
}

class LocatedError extends Error {
  constructor(
    readonly position: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}
