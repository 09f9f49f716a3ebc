import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { REPO_ROOT } from './paths';

/**
 * The store's Postgres tests run against a real server: a throwaway cluster that
 * `tooling/scripts/test-postgres.sh` initdb's into a temporary folder (run as a non-root user,
 * listening on a Unix socket in that folder) and removes again. Like tmux (see `findTmux`):
 *
 * - where PostgreSQL is not installed, those tests are skipped (and reported as skipped);
 * - with `BULLSWARM_REQUIRE_POSTGRES=1` (set by `.ci/run`, which installs Debian's postgresql)
 *   they run anyway and fail when it is missing, so CI never skips them silently;
 * - `BULLSWARM_TEST_PG_URL` (an already running server) is used instead of starting one.
 */
export const TEST_POSTGRES_SCRIPT = join(REPO_ROOT, 'tooling', 'scripts', 'test-postgres.sh');

/** `BULLSWARM_REQUIRE_POSTGRES=1`: the Postgres tests must run. */
export function postgresRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.BULLSWARM_REQUIRE_POSTGRES === '1';
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folder of `pg_ctl` and `initdb` (PATH, else the newest `/usr/lib/postgresql/<v>/bin`), if installed. */
export function findPostgresBin(searchPath: string = process.env.PATH ?? ''): string | undefined {
  for (const directory of searchPath.split(delimiter)) {
    if (directory !== '' && executable(join(directory, 'pg_ctl')) && executable(join(directory, 'initdb')))
      return directory;
  }
  let versions: string[] = [];
  try {
    versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  } catch {
    return undefined;
  }
  const bins = versions.map((version) => join('/usr/lib/postgresql', version, 'bin'));
  return bins.reverse().find((bin) => executable(join(bin, 'pg_ctl')));
}

/** Whether the Postgres tests run here: a server is given or installed, or they are required. */
export function runPostgresTests(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.BULLSWARM_TEST_PG_URL) || findPostgresBin() !== undefined || postgresRequired(env);
}

/** A running throwaway cluster. */
export interface TestPostgres {
  /** `postgresql://bullswarm@localhost/bullswarm?host=<folder>` (trust auth, Unix socket). */
  readonly url: string;
  /** Its temporary folder (data, socket, log). */
  readonly dir: string;
  /** Stop the server at once, as a crash or an outage would (`pg_ctl stop -m immediate`). */
  halt(): void;
  /** Start a halted server again (same folder, same socket). */
  resume(): void;
  /** Stop the server and remove its folder (idempotent). */
  stop(): void;
}

function script(args: readonly string[]): string {
  const result = spawnSync('bash', [TEST_POSTGRES_SCRIPT, ...args], { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(
      `tooling/scripts/test-postgres.sh ${args.join(' ')} failed (exit ${result.status ?? result.signal}): ${result.stderr.trim()}`,
    );
  }
  return result.stdout;
}

/**
 * Starts a throwaway cluster (see {@link TEST_POSTGRES_SCRIPT}); `durable` keeps the server's
 * fsync defaults (benchmarks), otherwise it runs fsync=off (tests).
 * @throws Error naming the script's failure (PostgreSQL missing: how to install it).
 */
export function startTestPostgres(options: { readonly durable?: boolean } = {}): TestPostgres {
  if (findPostgresBin() === undefined) {
    throw new Error(
      'PostgreSQL is required for the store tests (BULLSWARM_REQUIRE_POSTGRES=1) but not installed: apt-get install postgresql (pg_ctl and initdb, on PATH or in /usr/lib/postgresql/<version>/bin)',
    );
  }
  const out = script(['start', ...(options.durable ? ['--durable'] : [])]);
  const value = (name: string) => {
    const line = out.split('\n').find((l) => l.startsWith(`${name}=`));
    if (line === undefined) throw new Error(`test-postgres.sh start printed no ${name}: ${out}`);
    return line.slice(name.length + 1);
  };
  const dir = value('BULLSWARM_TEST_PG_DIR');
  let stopped = false;
  return {
    url: value('BULLSWARM_TEST_PG_URL'),
    dir,
    halt: () => void script(['halt', dir]),
    resume: () => void script(['resume', dir]),
    stop: () => {
      if (stopped) return;
      stopped = true;
      script(['stop', dir]);
    },
  };
}
