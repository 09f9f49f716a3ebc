import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** packages/connectors, which owns bullswarm-sim. */
export const CONNECTORS_ROOT = join(REPO_ROOT, 'packages', 'connectors');
/** The top-level built-in provider manifests. */
export const PROVIDERS_ROOT = join(REPO_ROOT, 'providers');
/** Where the built sim CLI is. */
export const SIM_CLI_BUILT = join(CONNECTORS_ROOT, 'dist', 'sim-cli.js');
