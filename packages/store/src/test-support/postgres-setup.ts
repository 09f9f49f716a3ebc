import { runPostgresTests, startTestPostgres } from '@bullswarm/test-support';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Postgres server of this run (empty: none here, its tests skip). */
    pgUrl: string;
  }
}

/**
 * vitest globalSetup: the Postgres server the store's engine tests run against —
 * `BULLSWARM_TEST_PG_URL` when given, else a throwaway cluster started here and removed at the
 * end (see `startTestPostgres`). Without PostgreSQL installed the Postgres tests skip, unless
 * `BULLSWARM_REQUIRE_POSTGRES=1`, where starting fails the run.
 */
export default function setup(project: TestProject): (() => void) | undefined {
  const given = process.env.BULLSWARM_TEST_PG_URL;
  if (given !== undefined && given !== '') {
    project.provide('pgUrl', given);
    return undefined;
  }
  if (!runPostgresTests()) {
    project.provide('pgUrl', '');
    return undefined;
  }
  const server = startTestPostgres();
  project.provide('pgUrl', server.url);
  return () => server.stop();
}
