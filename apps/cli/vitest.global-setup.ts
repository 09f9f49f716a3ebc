import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function pnpmCommand(): string[] {
  const probe = spawnSync('pnpm', ['--version'], { stdio: 'ignore' });
  return probe.status === 0 ? ['pnpm'] : ['npx', '-y', 'pnpm@10.34.9'];
}

/**
 * The CLI tests run the BUILT binary (`dist/index.js`) and it imports the other packages' builds,
 * so build the CLI and every package it uses first: `pnpm turbo run build --filter=@bullswarm/cli...`
 * (turbo's cache makes this quick when nothing changed). Under turbo's own `test` task
 * (`TURBO_HASH` is set) the builds already ran as dependencies and nothing is done here.
 */
export default function setup(): void {
  if (process.env.TURBO_HASH) return;
  const [command, ...prefix] = pnpmCommand();
  const result = spawnSync(
    command!,
    [...prefix, 'turbo', 'run', 'build', '--filter=@bullswarm/cli...', '--output-logs=errors-only'],
    { cwd: repoRoot, stdio: 'inherit', env: process.env },
  );
  if (result.status !== 0) {
    throw new Error(`building the CLI for its tests failed (turbo exit ${result.status})`);
  }
}
