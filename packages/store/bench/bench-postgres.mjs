// The Postgres server a store benchmark runs against: BULLSWARM_BENCH_PG_URL when given, else a
// throwaway durable cluster (tooling/scripts/test-postgres.sh start --durable; the server's default
// durability, so every commit waits for the disk). `stop()` removes the cluster it started, and
// nothing when the server was given.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const testPostgres = fileURLToPath(new URL('../../../tooling/scripts/test-postgres.sh', import.meta.url));

/** @returns {{ serverUrl: string, stop(): void }} */
export function startBenchPostgres() {
  const given = process.env.BULLSWARM_BENCH_PG_URL;
  if (given) return { serverUrl: given, stop() {} };
  const out = execFileSync('bash', [testPostgres, 'start', '--durable'], { encoding: 'utf8' });
  const serverUrl = /BULLSWARM_TEST_PG_URL=(.*)/.exec(out)[1];
  const dir = /BULLSWARM_TEST_PG_DIR=(.*)/.exec(out)[1];
  return {
    serverUrl,
    stop() {
      execFileSync('bash', [testPostgres, 'stop', dir]);
    },
  };
}
