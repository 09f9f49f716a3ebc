import { statSync } from 'node:fs';

/**
 * The warning for a home other users of the machine can read or enter (any group or other
 * permission bit), naming it and the `chmod` that fixes it; undefined for a private (0700) or
 * missing home. Everything bullswarm creates inside the home is 0600 (files) or 0700 (directories)
 * whatever the home's own mode, but files put there by hand or by an older bullswarm may not be,
 * and the names of its runs and workflows would still show.
 *
 * @example
 * ```ts
 * const warning = homeModeWarning(home.home);
 * if (warning) process.stderr.write(`warning: ${warning}\n`);
 * ```
 */
export function homeModeWarning(home: string): string | undefined {
  let mode: number;
  try {
    const stat = statSync(home);
    if (!stat.isDirectory()) return undefined;
    mode = stat.mode & 0o777;
  } catch {
    return undefined;
  }
  if ((mode & 0o077) === 0) return undefined;
  const octal = mode.toString(8).padStart(4, '0');
  return `the bullswarm home ${home} is open to other users of this machine (mode ${octal}); it holds account settings, agent transcripts and run records: make it private with \`chmod 700 ${shellQuote(home)}\``;
}

/** A path as one shell word (single-quoted when it has anything but safe characters). */
function shellQuote(path: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
