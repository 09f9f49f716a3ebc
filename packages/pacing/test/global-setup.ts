import { ensureBuilt } from './ensure-built';

/**
 * Builds dist once before any test file runs (when it is missing or stale), so the tests that
 * run the built package never race each other into two concurrent tsup builds.
 */
export default function setup(): void {
  ensureBuilt();
}
