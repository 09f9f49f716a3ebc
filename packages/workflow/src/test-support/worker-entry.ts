// The entry of the test worker bundle (built by vitest.global-setup.ts into
// test-results/worker/dist/index.js): the workflow engine plus the runtime opener, for tests that
// run the engine in a plain `node` child process so they can kill it.
export { openRuntime } from '@bullswarm/dispatch';
export * from '../index';
