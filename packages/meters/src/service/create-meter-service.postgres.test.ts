import { inject, it } from 'vitest';
import { useTestStoreEngine } from '../test-support/store';

// The meter service's suite again, on a Postgres store (a database of its own per test): the
// cache, holds, marks and retained readings behave the same on both engines.
if (inject('pgUrl') === '') {
  it.skip('on Postgres (no server here: install postgresql or set BULLSWARM_TEST_PG_URL)', () => {});
} else {
  useTestStoreEngine('postgres');
  await import('./create-meter-service.test');
}
