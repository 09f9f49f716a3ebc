import picomatch from 'picomatch';

/**
 * A matcher for a step's `files` globs (relative, `/`-separated; `./` prefixes are ignored),
 * compiled by picomatch (the matcher fast-glob uses for `forEach.glob`): `**` any number of
 * directories, `*` anything but `/`, `?` one character but `/`, `{a,b}` alternatives, `[abc]` /
 * `[!abc]` classes (POSIX brackets on); a dot-file is matched like any other file. An empty list
 * matches nothing.
 *
 * @example createFilesMatcher(['src/**\/*.ts'])('src/a/b.ts') // true
 */
export function createFilesMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  return picomatch(
    globs.map((glob) => glob.replace(/^\.\//, '')),
    { dot: true, posix: true },
  );
}
