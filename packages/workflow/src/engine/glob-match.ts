/**
 * Compiles a file glob (relative, `/`-separated) to a RegExp: `**` any number of directories,
 * `*` anything but `/`, `?` one character but `/`, `{a,b}` alternatives, `[abc]` / `[!abc]`
 * classes; a dot-file is matched like any other file. Everything else is literal.
 *
 * @example globToRegExp('src/**\/*.ts').test('src/a/b.ts') // true
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        if (atStart && atEnd) {
          // `**/` matches zero or more directories; a trailing `**` matches everything below.
          if (glob[i + 2] === '/') {
            out += '(?:.*/)?';
            i += 2;
          } else {
            out += '.*';
            i += 1;
          }
          continue;
        }
        out += '[^/]*';
        i += 1;
        continue;
      }
      out += '[^/]*';
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '{') {
      depth++;
      out += '(?:';
    } else if (char === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (char === ',' && depth > 0) {
      out += '|';
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
      i = close;
    } else {
      out += char.replace(/[.+^$()|\\]/g, '\\$&');
    }
  }
  while (depth-- > 0) out += ')';
  return new RegExp(`^${out}$`);
}

/** A matcher for a list of globs (`./` prefixes are ignored); an empty list matches nothing. */
export function createFilesMatcher(globs: readonly string[]): (path: string) => boolean {
  const patterns = globs.map((glob) => globToRegExp(glob.replace(/^\.\//, '')));
  return (path) => patterns.some((pattern) => pattern.test(path));
}
