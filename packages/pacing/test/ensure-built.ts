import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package directory (packages/pacing). */
export const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** The built entry point. */
export const distEntry = join(packageDir, 'dist', 'index.js');

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

/** Builds the package with tsup when dist is missing or older than a source file. */
export function ensureBuilt(): void {
  const stale =
    !existsSync(distEntry) || statSync(distEntry).mtimeMs < newestSourceMtime(join(packageDir, 'src'));
  if (stale)
    execFileSync(join(packageDir, 'node_modules', '.bin', 'tsup'), [], { cwd: packageDir, stdio: 'pipe' });
}
