import { inject, it } from 'vitest';
import { useDispatchStoreEngine } from '../test-support/dispatch-fixture';

// The ledger suite again on a Postgres store (a database of its own per fixture): the pick's
// read-route-record transaction, reaping after SIGKILL (this host: pid and start time), the
// orphaned worker's group ended, SIGTERM releasing the entry over the network.
if (inject('pgUrl') === '') {
  it.skip('on Postgres (no server here: install postgresql or set BULLSWARM_TEST_PG_URL)', () => {});
} else {
  useDispatchStoreEngine('postgres');
  await import('./ledger.test');
}
