import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database of its own for one test, on the run's server; `drop` removes it (connections too). */
export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates `bs_<random>` on the server of `serverUrl` and returns its URL. */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `bs_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
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
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
