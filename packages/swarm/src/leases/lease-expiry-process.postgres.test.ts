import { inject, it } from 'vitest';
import { useSwarmStoreEngine } from '../test-support/swarm-fixture';

// The same suite on a Postgres store (a database of its own per openTestSwarm), so the swarm's
// books keep one behaviour on both engines (docs/swarm.md, "One store, two engines").
if (inject('pgUrl') === '') {
  it.skip('on Postgres (no server here: install postgresql or set BULLSWARM_TEST_PG_URL)', () => {});
} else {
  useSwarmStoreEngine('postgres');
  await import('./lease-expiry-process.test');
}
