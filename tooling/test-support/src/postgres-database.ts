import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

/** A database of its own for one test, on the run's server; `drop` removes it (connections too). */
export interface TestDatabase {
  /** `postgresql://…/bs_<random>?host=…`: what a test home's `BULLSWARM_STORE_URL` is set to. */
  readonly url: string;
  drop(): Promise<void>;
}

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

/** pg, resolved from the store package (its dependency), so no other package needs it to create databases. */
function pgClient(connectionString: string): PgClient {
  const pg = createRequire(join(REPO_ROOT, 'packages', 'store', 'package.json'))('pg') as {
    Client: new (options: { connectionString: string }) => PgClient;
  };
  return new pg.Client({ connectionString });
}

/**
 * Creates `bs_<random>` on the server of `serverUrl` (the run's `pgUrl`, see postgres-setup.ts) and
 * returns its URL. Each test that opens a Postgres store gets one, so tests never see each other's rows.
 */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `bs_${randomBytes(6).toString('hex')}`;
  const admin = pgClient(serverUrl);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = pgClient(serverUrl);
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
