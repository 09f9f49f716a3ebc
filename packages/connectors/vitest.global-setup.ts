import { ensureSimBuilt } from '@bullswarm/test-support';

/**
 * The sim tests spawn the BUILT `dist/sim-cli.js`: build just that entry when it is missing or
 * stale, so `pnpm --filter @bullswarm/connectors test` works from a clean clone.
 */
export default function setup(): void {
  ensureSimBuilt('sim tests');
}
