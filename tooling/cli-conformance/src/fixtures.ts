import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the outputs of each real CLI are kept, beside its version:
 * `packages/connectors/src/__fixtures__/real/<connector>@<version>/` (read by the connectors'
 * tests, never shipped). See the README there for how they were captured.
 */
export const REAL_FIXTURES_ROOT = fileURLToPath(
  new URL('../../../packages/connectors/src/__fixtures__/real/', import.meta.url),
);

/** Every run's captures also go here (a CI artifact; ignored by git). */
export const CAPTURED_ROOT = fileURLToPath(new URL('../test-results/captured/', import.meta.url));

/** The kept fixtures of one CLI version. */
export function realFixtureDir(connector: string, version: string): string {
  return join(REAL_FIXTURES_ROOT, `${connector}@${version}`);
}

/**
 * Writes the files of one capture to `test-results/captured/<connector>@<version>/`, and to the
 * kept fixtures when that version has none yet or `BULLSWARM_UPDATE_CLI_FIXTURES=1` (a bumped
 * version gets its fixtures on its first run; kept ones do not churn with every run's session ids).
 * Returns where it kept them (undefined when the kept ones were left as they are).
 */
export function keepCapture(
  connector: string,
  version: string,
  files: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  const captured = join(CAPTURED_ROOT, `${connector}@${version}`);
  write(captured, files);
  const kept = realFixtureDir(connector, version);
  const update = env.BULLSWARM_UPDATE_CLI_FIXTURES === '1';
  if (!update && Object.keys(files).every((name) => existsSync(join(kept, name)))) return undefined;
  write(kept, files);
  return kept;
}

function write(dir: string, files: Readonly<Record<string, string>>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}
