import { inject, it } from 'vitest';
import { useWorkflowStoreEngine } from '../test-support/workflow-fixture';

// The same suite on a Postgres store (a database of its own per fixture; the engine's children
// reach it through BULLSWARM_STORE_URL): run ownership is a claim of the shared store there.
if (inject('pgUrl') === '') {
  it.skip('on Postgres (no server here: install postgresql or set BULLSWARM_TEST_PG_URL)', () => {});
} else {
  useWorkflowStoreEngine('postgres');
  await import('./workflow-e2e.test');
}
