import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Postgres server of this run (tooling/test-support/src/postgres-setup.ts); empty: none. */
    pgUrl: string;
  }
}

/** The run's Postgres server URL (each test makes a database of its own on it); empty when there is none here. */
export function testPostgresUrl(): string {
  return inject('pgUrl');
}
