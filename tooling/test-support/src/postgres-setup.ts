import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { runPostgresTests, startTestPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Postgres server of this run (empty: none here, its tests skip). */
    pgUrl: string;
  }
}

/**
 * vitest globalSetup of the packages whose tests also run on a Postgres store (meters, dispatch,
 * workflow, swarm, cli, dashboard, mcp): `BULLSWARM_TEST_PG_URL` when given, else a throwaway
 * cluster started here and removed at the end (see `startTestPostgres`). The server's URL is
 * `inject('pgUrl')` in tests (empty where PostgreSQL is not installed: those tests skip, unless
 * `BULLSWARM_REQUIRE_POSTGRES=1`, where starting fails the run). Each test makes a database of
 * its own with `createTestDatabase`.
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
